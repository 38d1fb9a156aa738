#!/bin/bash
# Issue 34, prepared 2026-12-03, not yet run: layout.cu (see its head) on the GPU machine.
cd "$(dirname "$0")"
nvcc -O3 -arch=sm_90 -std=c++17 layout.cu -o /tmp/layout || exit 1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
timeout 300 /tmp/layout 2>&1 | tee $OUT/layout.log
