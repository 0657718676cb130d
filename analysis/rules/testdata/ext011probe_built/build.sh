#!/bin/bash
# The bisection build: stops after the load.
ccec -xcce -O2 -DSTOP_AFTER_LOAD kernels/probe.cpp -o probe.o
