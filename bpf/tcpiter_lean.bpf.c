// SPDX-License-Identifier: GPL-2.0
/*
 * tcpiter's program for everything but pin and -i, that loads faster
 * (see tcpiter.bpf.c).  libbpf, on kernels without the light skeleton's
 * loader, loads the whole program instead.
 */
#define TCPITER_LEAN
#include "tcpiter.bpf.c"
