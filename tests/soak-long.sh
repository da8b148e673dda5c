#!/bin/sh
# make soak-long runs this: the long soak (tests/soak_long.c), through the
# TAP driver like every other test.
exec "${PML_BUILDDIR:?run with make soak-long}/tests/soak_long"
