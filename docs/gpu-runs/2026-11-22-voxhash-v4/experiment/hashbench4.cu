// Experiment: cuckoo insertion that looks before it evicts (not part of the build).
#include <cstdio>
#include <cstdint>
#include <vector>
#include <algorithm>
#include <random>
typedef unsigned long long u64; typedef std::uint32_t u32;
constexpr u32 P = 4294967291u, EMPTY = 0xffffffffu;
__host__ __device__ u32 mix32(u32 x){x^=x>>16;x*=0x7feb352du;x^=x>>15;x*=0x846ca68bu;x^=x>>16;return x;}
struct F { int count; u32 slots; u32 a[5], b[5]; };
__device__ __forceinline__ u32 slotOf(const F& f, int i, u32 k){
  u64 m = u64(f.a[i])*k + f.b[i];
  m = (m>>32)*5 + (m & 0xffffffffu); m = (m>>32)*5 + (m & 0xffffffffu);
  u32 r = u32(m >= P ? m - P : m);
  return __umulhi(r, f.slots);
}
template<int C> __device__ u32 nextAll(const F& f, u32 key, u32 from){
  u32 s[C];
#pragma unroll
  for(int i=0;i<C;++i) s[i]=slotOf(f,i,key);
  u32 to = from; bool found=false, after=false;
#pragma unroll
  for(int r=0;r<2*C;++r){ int i=r%C; if(after && !found && s[i]!=from){to=s[i];found=true;} if(!after && s[i]==from) after=true; }
  return to;
}
__device__ __forceinline__ u64 ld(const u64* p){ return __ldcg(p); }
// MODE 0: exchange first (the chapter). 1: look first, slots read one by one. 2: look first, all read at once.
// LOOKEV: evicted keys look too.
template<int MODE, int LOOKEV, int C> __global__ void insertK(const u32* keys, u32 n, u64* table, F f, int limit, unsigned short* moves, int* failed){
  u32 k = blockIdx.x*blockDim.x+threadIdx.x; if(k>=n) return;
  u32 key=keys[k]; u64 e=(u64(key)<<32)|mix32(~k); int m=0;
  u32 at = slotOf(f,0,key); u32 from = EMPTY;
  for(;;){
    bool look = MODE==3 ? from!=EMPTY : (MODE!=0 && (from==EMPTY || LOOKEV));
    if(look){
      u32 s[C]; u64 v[C];
#pragma unroll
      for(int i=0;i<C;++i) s[i]=slotOf(f,i,key);
      if(MODE==2){ // all at once
#pragma unroll
        for(int i=0;i<C;++i) v[i]= s[i]==from ? 0 : ld(table+s[i]);
      }
      bool placed=false;
#pragma unroll
      for(int i=0;i<C;++i){
        if(placed || s[i]==from) continue;
        u64 cur = MODE==2 ? v[i] : ld(table+s[i]);
        if(u32(cur>>32)==EMPTY){ ++m; u64 old=atomicCAS(table+s[i],cur,e); if(old==cur) placed=true; }
      }
      if(placed) break;
      if(from==EMPTY) at=s[0];
    }
    if(++m>limit){*failed=1; m=0; break;}
    u64 ev=atomicExch(table+at,e); u32 ek=u32(ev>>32); if(ek==EMPTY) break;
    from=at; e=ev; key=ek; at=nextAll<C>(f,key,at);
  }
  moves[k]=m;
}

#include <cooperative_groups.h>
namespace cg = cooperative_groups;
struct Fs { F f[4]; };
__global__ void coopBuild(const u32* keys, u32 n, u64* table, Fs fs, int attempts, int limit, int* status){
  cg::grid_group g = cg::this_grid();
  const u32 stride = gridDim.x*blockDim.x, t0 = blockIdx.x*blockDim.x+threadIdx.x;
  __shared__ int failedHere;
  for(int a=0;a<attempts;++a){
    const F f = fs.f[a];
    for(u32 s=t0;s<f.slots;s+=stride) table[s]=~0ull;
    if(threadIdx.x==0) failedHere=0;
    g.sync();
    for(u32 k=t0;k<n;k+=stride){
      u32 key=keys[k]; u64 e=(u64(key)<<32)|mix32(~k); u32 at=slotOf(f,0,key); int m=1;
      for(; m<=limit; ++m){ u64 ev=atomicExch(table+at,e); u32 ek=u32(ev>>32); if(ek==EMPTY) break; e=ev; key=ek; at=nextAll<4>(f,key,at);}
      if(m>limit) failedHere=1;
    }
    __syncthreads();
    if(threadIdx.x==0 && failedHere) atomicAdd(status+a,1);
    g.sync();
    if(status[a]==0){ if(t0==0) status[8]=a+1; return; }
  }
}
__global__ void queryK(const u32* keys, u32 n, const u64* table, F f, u32* out){
  u32 k = blockIdx.x*blockDim.x+threadIdx.x; if(k>=n) return; u32 key=keys[k]; u32 v=EMPTY;
  for(int i=0;i<f.count;++i){u64 e=table[slotOf(f,i,key)]; u32 ek=u32(e>>32); if(ek==key){v=u32(e);break;} if(ek==EMPTY) break;}
  out[k]=v;
}
__global__ void keysK(u32* k,u32 n,u32 off,u32 seed){u32 i=blockIdx.x*blockDim.x+threadIdx.x; if(i<n) k[i]=mix32((i+off)^seed);}
template<class L> float timeIt(L l,int reps=21){ cudaEvent_t a,b; cudaEventCreate(&a);cudaEventCreate(&b); std::vector<float> t; l(); for(int r=0;r<reps;++r){cudaEventRecord(a);l();cudaEventRecord(b);cudaEventSynchronize(b);float ms;cudaEventElapsedTime(&ms,a,b);t.push_back(ms);} std::sort(t.begin(),t.end()); return t[reps/2]; }
int main(){
  for(int lg : {20, 22, 25}){ if(lg==22) continue;
    u32 n=1u<<lg, slots=u32(1.25*n); int limit=int(7*lg);
    u32 *keys,*miss,*out; u64* table; unsigned short* moves; int* failed;
    cudaMalloc(&keys,4ull*n);cudaMalloc(&miss,4ull*n);cudaMalloc(&out,4ull*n);cudaMalloc(&table,8ull*slots);cudaMalloc(&moves,2ull*n);cudaMalloc(&failed,4);
    keysK<<<(n+255)/256,256>>>(keys,n,0,12345); keysK<<<(n+255)/256,256>>>(miss,n,n,12345);
    printf("== 2^%d keys, %u slots\n",lg,slots);
    float rr=timeIt([&]{cudaMemsetAsync(table,0xff,8ull*slots);}); printf("memset: %.4f ms\n",rr);
    int hostFailed=0;
    rr=timeIt([&]{cudaMemsetAsync(table,0xff,8ull*slots); cudaMemcpy(&hostFailed,failed,4,cudaMemcpyDeviceToHost);}); printf("memset+status readback: %.4f ms\n",rr);
    auto run=[&](const char* name, auto ins, int block, int seedSet){
      F f{4,slots,{},{}}; std::mt19937 rng(7+seedSet); for(int i=0;i<5;++i){f.a[i]=1+rng()%(P-1); f.b[i]=rng()%P;}
      auto kern=[&]{ins<<<(n+block-1)/block,block>>>(keys,n,table,f,limit,moves,failed);};
      auto build=[&]{cudaMemsetAsync(table,0xff,8ull*slots); kern();};
      cudaMemset(failed,0,4); float b=timeIt(build);
      float full=timeIt([&]{build(); cudaMemcpy(&hostFailed,failed,4,cudaMemcpyDeviceToHost);});
      int fl; cudaMemcpy(&fl,failed,4,cudaMemcpyDeviceToHost);
      std::vector<unsigned short> mv(n); cudaMemcpy(mv.data(),moves,2ull*n,cudaMemcpyDeviceToHost); double mean=0; int mx=0; for(auto m:mv){mean+=m;mx=std::max<int>(mx,m);} mean/=n;
      // correctness: every key found with its value, every absent key missing
      queryK<<<(n+255)/256,256>>>(keys,n,table,f,out); std::vector<u32> o(n),kk(n); cudaMemcpy(o.data(),out,4ull*n,cudaMemcpyDeviceToHost); cudaMemcpy(kk.data(),keys,4ull*n,cudaMemcpyDeviceToHost);
      size_t lost=0; for(u32 i=0;i<n;++i) if(o[i]!=mix32(~i)) ++lost;
      queryK<<<(n+255)/256,256>>>(miss,n,table,f,out); cudaMemcpy(o.data(),out,4ull*n,cudaMemcpyDeviceToHost); size_t wrong=0; for(u32 i=0;i<n;++i) if(o[i]!=EMPTY) ++wrong;
      float qh=timeIt([&]{queryK<<<(n+63)/64,64>>>(keys,n,table,f,out);});
      printf("%-30s block %4d set %d  mem+kernel %.4f ms %.2f G/s  +status %.4f ms %.2f G/s  failed %d ops mean %.3f max %d  lost %zu false %zu  hits %.2f G/s\n",name,block,seedSet,b,n/b/1e6,full,n/full/1e6,fl,mean,mx,lost,wrong,n/qh/1e6);
    };
    for(int s=0;s<(lg==20?2:1);++s){
      run("exchange first (chapter)", insertK<0,0,4>, 64, s);
      run("look first, one by one", insertK<1,0,4>, 64, s);
      run("look first, one by one, ev", insertK<1,1,4>, 64, s);
      run("look first, all at once", insertK<2,0,4>, 64, s);
      run("look first, all at once, ev", insertK<2,1,4>, 64, s);
    }

    run("exchange, evicted look", insertK<3,0,4>, 64, 0);
    run("exchange, evicted look", insertK<3,0,4>, 64, 1);
    { // status readback styles for the chapter's build
      F f{4,slots,{},{}}; std::mt19937 rng(7); for(int i=0;i<5;++i){f.a[i]=1+rng()%(P-1); f.b[i]=rng()%P;}
      int* pinned; cudaHostAlloc(&pinned,4,cudaHostAllocMapped); int* mapped; cudaHostGetDevicePointer(&mapped,pinned,0);
      auto kern=[&](int* fl){cudaMemsetAsync(table,0xff,8ull*slots); insertK<0,0,4><<<(n+63)/64,64>>>(keys,n,table,f,limit,moves,fl);};
      float t1=timeIt([&]{kern(failed); cudaMemcpyAsync(pinned,failed,4,cudaMemcpyDeviceToHost); cudaStreamSynchronize(0);});
      float t2=timeIt([&]{kern(mapped); cudaStreamSynchronize(0);});
      printf("exchange + status to pinned: %.4f ms %.2f G/s; written to mapped host memory: %.4f ms %.2f G/s\n",t1,n/t1/1e6,t2,n/t2/1e6);
      Fs fs; for(int a=0;a<4;++a){ fs.f[a]=F{4,slots,{},{}}; for(int i=0;i<5;++i){fs.f[a].a[i]=1+rng()%(P-1); fs.f[a].b[i]=rng()%P;} }
      int* st; cudaMalloc(&st,16*4);
      for(int block : {64,128,256,512}){
        int perSm=0; cudaOccupancyMaxActiveBlocksPerMultiprocessor(&perSm, coopBuild, block, 0);
        int sms; cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
        int grid = perSm*sms; int attempts=4;
        u32 nn=n; const u32* kp=keys; u64* tp=table; int lim=limit;
        void* args[]={(void*)&kp,(void*)&nn,(void*)&tp,(void*)&fs,(void*)&attempts,(void*)&lim,(void*)&st};
        auto go=[&]{cudaMemsetAsync(st,0,64); cudaLaunchCooperativeKernel((void*)coopBuild,grid,block,args,0,0);};
        float a=timeIt(go); float b=timeIt([&]{go(); cudaMemcpyAsync(pinned,st+8,4,cudaMemcpyDeviceToHost); cudaStreamSynchronize(0);});
        queryK<<<(n+255)/256,256>>>(keys,n,table,fs.f[*pinned-1],out); std::vector<u32> o(n); cudaMemcpy(o.data(),out,4ull*n,cudaMemcpyDeviceToHost); size_t lost=0; for(u32 i=0;i<n;++i) if(o[i]!=mix32(~i)) ++lost;
        printf("cooperative build block %d grid %d (%d per SM): %.4f ms %.2f G/s, with the attempt read back %.4f ms %.2f G/s, attempt %d lost %zu err %s\n",block,grid,perSm,a,n/a/1e6,b,n/b/1e6,*pinned,lost,cudaGetErrorString(cudaGetLastError()));
      }
      cudaFree(st); cudaFreeHost(pinned);
    }
    run("look first, one by one, ev", insertK<1,1,4>, 128, 0);
    run("look first, one by one, ev", insertK<1,1,4>, 256, 0);
    run("look first, all at once, ev", insertK<2,1,4>, 256, 0);
    cudaFree(keys);cudaFree(miss);cudaFree(out);cudaFree(table);cudaFree(moves);cudaFree(failed);
  }
  printf("err: %s\n", cudaGetErrorString(cudaDeviceSynchronize()));
}
