// Experiment: cuckoo build/query variants on the GPU (not part of the build).
#include <cstdio>
#include <cstdint>
#include <vector>
#include <algorithm>
#include <random>
typedef unsigned long long u64; typedef std::uint32_t u32;
constexpr u32 P = 4294967291u, EMPTY = 0xffffffffu;
__host__ __device__ u32 mix32(u32 x){x^=x>>16;x*=0x7feb352du;x^=x>>15;x*=0x846ca68bu;x^=x>>16;return x;}
struct F { int count; u32 slots; u32 a[5], b[5]; };
template<int H> __device__ __forceinline__ u32 slotOf(const F& f, int i, u32 k){
  u64 m = u64(f.a[i])*k + f.b[i];
  if (H==0) return u32(m % P) % f.slots;
  m = (m>>32)*5 + (m & 0xffffffffu); m = (m>>32)*5 + (m & 0xffffffffu);
  u32 r = u32(m >= P ? m - P : m);
  return __umulhi(r, f.slots);
}
template<int H> __device__ u32 nextLoop(const F& f, u32 key, u32 from){
  int i=0; while(i<f.count-1 && slotOf<H>(f,i,key)!=from) ++i;
  for(int s=1;s<f.count;++s){u32 to=slotOf<H>(f,(i+s)%f.count,key); if(to!=from) return to;}
  return from;
}
template<int H, int C> __device__ u32 nextAll(const F& f, u32 key, u32 from){
  u32 s[C];
#pragma unroll
  for(int i=0;i<C;++i) s[i]=slotOf<H>(f,i,key);
  // first i with s[i]==from, then the following different one
  u32 to = from; bool found=false, after=false;
#pragma unroll
  for(int r=0;r<2*C;++r){ int i=r%C; if(after && !found && s[i]!=from){to=s[i];found=true;} if(!after && s[i]==from) after=true; }
  return to;
}
template<int H, int NX, int C> __global__ void insertK(const u32* keys, u32 n, u64* table, F f, int limit, unsigned short* moves, int* failed){
  u32 k = blockIdx.x*blockDim.x+threadIdx.x; if(k>=n) return;
  u32 key=keys[k]; u64 e=(u64(key)<<32)|mix32(~k); u32 at=slotOf<H>(f,0,key); int m=1;
  for(; m<=limit; ++m){ u64 ev=atomicExch(table+at,e); u32 ek=u32(ev>>32); if(ek==EMPTY) break; e=ev; key=ek; at = NX? nextAll<H,C>(f,key,at) : nextLoop<H>(f,key,at);}
  if(m>limit){*failed=1; m=0;} moves[k]=m;
}
template<int H, int MODE> __global__ void queryK(const u32* keys, u32 n, const u64* table, F f, u32* out){
  u32 k = blockIdx.x*blockDim.x+threadIdx.x; if(k>=n) return; u32 key=keys[k]; u32 v=EMPTY;
  if(MODE==0){ for(int i=0;i<f.count;++i){u64 e=table[slotOf<H>(f,i,key)]; if(u32(e>>32)==key){v=u32(e);break;}} }
  else if(MODE==1){ u64 e[5];
#pragma unroll
    for(int i=0;i<5;++i) if(i<f.count) e[i]=table[slotOf<H>(f,i,key)];
#pragma unroll
    for(int i=0;i<5;++i) if(i<f.count && u32(e[i]>>32)==key) v=u32(e[i]); }
  else if(MODE==3){ for(int i=0;i<f.count;++i){u64 e=table[slotOf<H>(f,i,key)]; u32 ek=u32(e>>32); if(ek==key){v=u32(e);break;} if(ek==EMPTY) break;} }
  else { u64 e0=table[slotOf<H>(f,0,key)], e1=table[slotOf<H>(f,1,key)];
    if(u32(e0>>32)==key) v=u32(e0); else if(u32(e1>>32)==key) v=u32(e1); else for(int i=2;i<f.count;++i){u64 e=table[slotOf<H>(f,i,key)]; if(u32(e>>32)==key){v=u32(e);break;}} }
  out[k]=v;
}
__global__ void fillK(u64* t,u32 n){u32 s=blockIdx.x*blockDim.x+threadIdx.x; if(s<n) t[s]=u64(EMPTY)<<32;}
__global__ void keysK(u32* k,u32 n,u32 off,u32 seed){u32 i=blockIdx.x*blockDim.x+threadIdx.x; if(i<n) k[i]=mix32((i+off)^seed);}
__global__ void randReadK(const u64* t,u32 slots,u32 n,u64* sink){u32 i=blockIdx.x*blockDim.x+threadIdx.x; if(i>=n) return; u64 v=t[__umulhi(mix32(i*2654435761u),slots)]; if(v==42) *sink=v;}
__global__ void randExchK(u64* t,u32 slots,u32 n){u32 i=blockIdx.x*blockDim.x+threadIdx.x; if(i>=n) return; atomicExch(t+__umulhi(mix32(i*2654435761u),slots),u64(i));}
template<class L> float timeIt(L l,int reps=15){ cudaEvent_t a,b; cudaEventCreate(&a);cudaEventCreate(&b); std::vector<float> t; l(); for(int r=0;r<reps;++r){cudaEventRecord(a);l();cudaEventRecord(b);cudaEventSynchronize(b);float ms;cudaEventElapsedTime(&ms,a,b);t.push_back(ms);} std::sort(t.begin(),t.end()); return t[reps/2]; }
int main(){
  for(int lg : {20, 25}) for(int gran : {0, 32, 64, 128}){
    if(gran){ cudaDeviceSetLimit(cudaLimitMaxL2FetchGranularity, gran);} size_t g=0; cudaDeviceGetLimit(&g,cudaLimitMaxL2FetchGranularity);
    u32 n=1u<<lg, slots=u32(1.25*n); int limit=int(7*lg);
    u32 *keys,*miss,*out; u64* table; unsigned short* moves; int* failed; u64* sink;
    cudaMalloc(&keys,4ull*n);cudaMalloc(&miss,4ull*n);cudaMalloc(&out,4ull*n);cudaMalloc(&table,8ull*slots);cudaMalloc(&moves,2ull*n);cudaMalloc(&failed,4);cudaMalloc(&sink,8);
    keysK<<<(n+255)/256,256>>>(keys,n,0,12345); keysK<<<(n+255)/256,256>>>(miss,n,n,12345);
    F f{4,slots,{},{}}; std::mt19937 rng(7); for(int i=0;i<5;++i){f.a[i]=1+rng()%(P-1); f.b[i]=rng()%P;}
    printf("== 2^%d keys, %u slots, L2 fetch granularity %zu\n",lg,slots,g);
    float rr=timeIt([&]{randReadK<<<(n+255)/256,256>>>(table,slots,n,sink);}); printf("random 8B reads: %.3f ms %.2f G/s\n",rr,n/rr/1e6);
    rr=timeIt([&]{randExchK<<<(n+255)/256,256>>>(table,slots,n);}); printf("random 8B atomicExch: %.3f ms %.2f G/s\n",rr,n/rr/1e6);
    rr=timeIt([&]{fillK<<<(slots+255)/256,256>>>(table,slots);}); printf("fill kernel: %.3f ms\n",rr);
    rr=timeIt([&]{cudaMemsetAsync(table,0xff,8ull*slots);}); printf("memset: %.3f ms\n",rr);
    auto run=[&](const char* name, auto ins, int block){
      auto build=[&]{fillK<<<(slots+255)/256,256>>>(table,slots); ins<<<(n+block-1)/block,block>>>(keys,n,table,f,limit,moves,failed);};
      cudaMemset(failed,0,4); float b=timeIt(build); int fl; cudaMemcpy(&fl,failed,4,cudaMemcpyDeviceToHost);
      std::vector<unsigned short> mv(n); cudaMemcpy(mv.data(),moves,2ull*n,cudaMemcpyDeviceToHost); double mean=0; int mx=0; for(auto m:mv){mean+=m;mx=std::max<int>(mx,m);} mean/=n;
      printf("%-28s block %4d build %.3f ms %.2f G/s failed %d moves mean %.3f max %d\n",name,block,b,n/b/1e6,fl,mean,mx);
    };
    run("H1 fastmod+mulhi all", insertK<1,1,4>, 64);
    auto q=[&](const char* name, auto k, int block, const u32* ks){ float t=timeIt([&]{k<<<(n+block-1)/block,block>>>(ks,n,table,f,out);}); printf("%-28s block %4d %.3f ms %.2f G/s\n",name,block,t,n/t/1e6);};
    q("hits serial",queryK<1,0>,64,keys); q("hits early-exit",queryK<1,3>,64,keys);
    q("miss serial",queryK<1,0>,64,miss); q("miss early-exit",queryK<1,3>,64,miss);
    cudaFree(keys);cudaFree(miss);cudaFree(out);cudaFree(table);cudaFree(moves);cudaFree(failed);cudaFree(sink);
  }
  printf("err: %s\n", cudaGetErrorString(cudaDeviceSynchronize()));
}
