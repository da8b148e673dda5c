#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later
# make soak-long runs this: the long soak (tests/module/soak_long.c), through the
# TAP driver like every other test.
exec "${PML_BUILDDIR:?run with make soak-long}/tests/module/soak_long"
