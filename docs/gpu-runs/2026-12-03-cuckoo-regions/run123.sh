#!/bin/bash
# Issue 34, run 123: where the by-region build's time goes (run 122 found it no faster): Nsight
# Compute's duration of each kernel of the build (the fill, the regions, CUB's sort, the insert),
# 2^25 keys, as given and by region, for three tables. Same tree as run 122.
cd "$(dirname "$0")"/../../..
if [ ! -x /tmp/e/warpscope ]; then
  rm -rf /tmp/x /tmp/e && mkdir /tmp/x
  tar --exclude=./.devdeps --exclude=./.git --exclude=./build -cf - . | tar -xf - -C /tmp/x
  cmake -S /tmp/x -B /tmp/e -G Ninja -DCMAKE_BUILD_TYPE=Release > /tmp/configure-e.log 2>&1
  ninja -C /tmp/e warpscope > /tmp/build-e.log 2>&1 || { grep -B2 -A20 error /tmp/build-e.log | head -60; exit 1; }
fi
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
mkdir -p $OUT/r; R=$OUT/r
for cfg in "8 2" "4 3" "1 4"; do
  set -- $cfg
  for order in "as given" "by region"; do
    f=$R/ncu-$1-$2-${order// /-}.csv
    timeout 100 ncu --clock-control none --metrics gpu__time_duration.sum --csv --print-units base \
      -k regex:'insert|region|Radix|Onesweep|Histogram|Scan' --launch-skip 0 --launch-count 30 \
      /tmp/e/warpscope bench --module voxhash --backend cuda --size 2^25 --samples 3 --steps-per-sample 1 \
      --set voxhash.bucket=$1 --set voxhash.functions=$2 --set voxhash.insertion=look \
      --set "voxhash.order=$order" > $f 2>&1
    echo "== bucket $1 functions $2 $order"
    grep '"gpu__time_duration.sum"' $f | awk -F'","' '{n=$5; sub(/\(.*/,"",n); t[n]+=$NF; c[n]++} END {for (k in t) printf "  %-60s %3d launches, mean %.1f us\n", substr(k,1,60), c[k], t[k]/c[k]/1000}'
  done
done
tar -czf $OUT/run123.tgz -C $OUT r && rm -rf $R
