#!/bin/bash
# A compile line with -I: relative to this script's folder.
SCRIPT_DIR=$(cd "$(dirname "$0")" && pwd)
ccec -O2 --cce-aicore-arch=dav-c220-vec -I "${SCRIPT_DIR}/../shared/flush" -I${ASCEND_HOME}/include -c poll_script.cpp -o poll_script.o
