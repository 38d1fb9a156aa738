#!/bin/bash
# Issue 34, run 97: Life as committed (Conway's rule as LOP3s, funnel shifts, rows trimmed a
# generation): life_cuda_test, memcheck and racecheck, every CUDA variant at 32768^2, the temporal
# kernel's generations a pass, 65536^2. Then, for issue 31, the SASS of Cahn-Hilliard's 3-D kernel
# and Nsight Compute's instruction mix of its two passes at 256^3.
cd "$(dirname "$0")"/../../..
cmake -S . -B /tmp/b -G Ninja -DCMAKE_BUILD_TYPE=Release > /tmp/configure.log 2>&1
start=$(date +%s)
ninja -C /tmp/b warpscope life_cuda_test launch_readout_test contract_test > /tmp/build.log 2>&1 || { grep -B2 -A20 error /tmp/build.log | head -60; exit 1; }
echo "built in $(($(date +%s) - start)) s"
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader; date -u; git log --oneline -1
/tmp/b/tests/life_cuda_test 2>&1 | tail -3
/tmp/b/tests/launch_readout_test --gtest_filter='*Life*' 2>&1 | tail -2
/tmp/b/tests/contract_test --gtest_filter='*life*' 2>&1 | tail -2
for t in memcheck racecheck; do
  WS_SANITIZER_RUN=1 timeout 150 /usr/local/cuda/bin/compute-sanitizer --tool $t --error-exitcode 9 \
    /tmp/b/tests/life_cuda_test --gtest_filter='*EveryVariant*' > $OUT/sanitizer-$t.log 2>&1
  echo "$t rc $? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED' $OUT/sanitizer-$t.log | tr '\n' ' ')"
done
W=/tmp/b/warpscope
mkdir -p /tmp/j
timeout 120 $W bench --module life --backend cuda --size 32768 --json /tmp/j/life-32768.json > /tmp/j/life-32768.txt 2>&1
cat /tmp/j/life-32768.txt
for g in 2 8; do
  timeout 60 $W bench --module life --backend cuda --variant temporal --size 32768 --set life.generations_per_pass=$g \
    --json /tmp/j/life-32768-g$g.json 2>&1 | grep "^cuda"
done
timeout 120 $W bench --module life --backend cuda --variant bitpacked --variant temporal --size 65536 --samples 7 \
  --json /tmp/j/life-65536.json 2>&1 | grep "^cuda"
tar czf $OUT/json.tgz -C /tmp j
# Issue 31: the 3-D Cahn-Hilliard kernel's SASS and executed instruction mix
for f in $(/usr/local/cuda/bin/cuobjdump -symbols $W 2>/dev/null | grep -o '_ZN2ws2ch14vectorKernel3d[A-Za-z0-9_]*' | sort -u); do
  /usr/local/cuda/bin/cuobjdump -sass -fun $f $W > $OUT/sass-$(echo $f | md5sum | cut -c1-6).txt 2>&1
  echo "$f -> sass-$(echo $f | md5sum | cut -c1-6).txt: $(grep -c '/\*[0-9a-f]*\*/' $OUT/sass-$(echo $f | md5sum | cut -c1-6).txt) instructions"
done
timeout 240 /usr/local/cuda/bin/ncu --kernel-name regex:vectorKernel3d --launch-skip 20 --launch-count 2 \
  --section InstructionStats --section WarpStateStats --section LaunchStats --section SpeedOfLight \
  --metrics smsp__inst_executed.sum,smsp__sass_inst_executed_op_shared_ld.sum,smsp__sass_inst_executed_op_shared_st.sum,sm__inst_executed_pipe_fma.avg.pct_of_peak_sustained_active,sm__inst_executed_pipe_alu.avg.pct_of_peak_sustained_active,sm__inst_executed_pipe_lsu.avg.pct_of_peak_sustained_active \
  $W bench --module cahn-hilliard --backend cuda --variant shuffle --size 256^3 --samples 3 --steps-per-sample 4 \
  --json /tmp/ch.json > $OUT/ncu-ch3d.txt 2>&1
echo "ncu rc $?"; grep -E "vectorKernel3d|Duration|Executed Ipc|Issue Slots Busy|inst_executed|pipe_|Warp Cycles Per Issued|Registers Per" $OUT/ncu-ch3d.txt | head -40
timeout 120 /usr/local/cuda/bin/ncu --kernel-name regex:vectorKernel3d --launch-skip 20 --launch-count 2 \
  --metrics sass__inst_executed_per_opcode --print-metric-instances values \
  $W bench --module cahn-hilliard --backend cuda --variant shuffle --size 256^3 --samples 3 --steps-per-sample 4 \
  --json /tmp/ch.json > $OUT/ncu-ch3d-opcodes.txt 2>&1
echo "ncu opcodes rc $?"; grep -E "vectorKernel3d|sass__inst_executed_per_opcode" $OUT/ncu-ch3d-opcodes.txt | cut -c1-600
