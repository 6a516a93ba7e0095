/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Loading tcpiter's and udpiter's BPF iterator programs, attaching,
 * pinning and reading them, and what the programs must be told of the
 * kernel before they load.  Each applet brings its skeletons, through
 * the loader macros here.
 */
#ifndef SOCKLOAD_H
#define SOCKLOAD_H

#include <errno.h>
#include <linux/types.h>
#include <stdbool.h>

#include "sock/sockopt.h"

/* A loaded iterator program, from either skeleton. */
struct sockiter_prog {
	int fd;
	/* the program's .bss, mapped */
	__u64 (*counts)[SOCK_TCP_STATES];
	struct sock_kill_state *kill_state;
};

/*
 * The applet's two ways to load its program with *config.  load_light, the
 * light skeleton, lets the kernel do the CO-RE relocations (5.17 and later,
 * commit fbd94c7afcf9): no reading and searching of the kernel's BTF here.
 * load_libbpf works on any kernel with BTF and says why it fails; NULL for
 * kill's programs, which only kernels that take light skeletons can load
 * (the kfunc bpf_sock_destroy() came in 6.5, commit 4ddbcb886268, the
 * kernel's CO-RE for loaders in 5.17).  Both return 0 or a negative errno.
 */
struct sockiter_loader {
	int (*load_light)(const struct sockiter_config *config,
			  struct sockiter_prog *prog);
	int (*load_libbpf)(const struct sockiter_config *config,
			   struct sockiter_prog *prog);
};

/*
 * Defines NAME_load_light, that loads program PROG of applet NAME from the
 * light skeleton NAME.lskel.h (struct NAME_light), included before.
 */
#define SOCKITER_LOAD_LIGHT(NAME, PROG)					\
static int NAME##_load_light(const struct sockiter_config *config,	\
			     struct sockiter_prog *prog)		\
{									\
	struct NAME##_light *skel = NAME##_light__open();		\
	int err;							\
									\
	if (!skel)							\
		return -ENOMEM;						\
	skel->rodata->config = *config;					\
	err = NAME##_light__load(skel);					\
	if (err) {							\
		NAME##_light__destroy(skel);				\
		return err;						\
	}								\
	prog->fd = skel->progs.PROG.prog_fd;				\
	prog->counts = skel->bss->counts;				\
	prog->kill_state = &skel->bss->kill_state;			\
	return 0;							\
}

/* Defines NAME_loader, that loads program PROG of applet NAME from the
 * light skeleton NAME.lskel.h only. */
#define SOCKITER_LIGHT_LOADER(NAME, PROG)				\
SOCKITER_LOAD_LIGHT(NAME, PROG)						\
									\
static const struct sockiter_loader NAME##_loader = {			\
	.load_light = NAME##_load_light,				\
}

/*
 * Defines NAME_loader, the two ways to load program PROG of applet NAME:
 * from the light skeleton NAME.lskel.h (struct NAME_light) and from the
 * skeleton NAME.skel.h (struct NAME), both included before.
 */
#define SOCKITER_LOADER(NAME, PROG)					\
SOCKITER_LOAD_LIGHT(NAME, PROG)						\
									\
static int NAME##_load_libbpf(const struct sockiter_config *config,	\
			      struct sockiter_prog *prog)		\
{									\
	struct NAME *skel = NAME##__open();				\
	int err;							\
									\
	if (!skel)							\
		return -errno;						\
	skel->rodata->config = *config;					\
	err = NAME##__load(skel);					\
	if (err) {							\
		NAME##__destroy(skel);					\
		return err;						\
	}								\
	prog->fd = bpf_program__fd(skel->progs.PROG);			\
	prog->counts = skel->bss->counts;				\
	prog->kill_state = &skel->bss->kill_state;			\
	return 0;							\
}									\
									\
static const struct sockiter_loader NAME##_loader = {			\
	.load_light = NAME##_load_light,				\
	.load_libbpf = NAME##_load_libbpf,				\
}

/* Is cap effective?  Yes when capget() cannot tell. */
bool sock_has_cap(int cap);
/* Does the kernel's BTF name the function func?  Yes when it cannot
 * tell.  Why a load failed: a kernel without the iterator, or the kfunc. */
bool sock_kernel_has_func(const char *func);

/* The BPF JIT's switch.  A program that calls a kfunc needs the JIT
 * (commit e6ac2450d6de, add_kfunc_call(): "JIT is required for calling
 * kernel function"), which is off until switched on where the kernel
 * was built without CONFIG_BPF_JIT_DEFAULT_ON: riscv64's selects no
 * ARCH_WANT_DEFAULT_BPF_JIT. */
#define SOCK_JIT_SWITCH		"/proc/sys/net/core/bpf_jit_enable"
/* How a user switches it on, as the messages say it. */
#define SOCK_JIT_ON		"echo 1 > " SOCK_JIT_SWITCH
/* Is the JIT switched off (SOCK_JIT_SWITCH reads 0)? */
bool sock_jit_off(void);
/* What ends the message of a program that did not load: the JIT's
 * switch where it is off (7.x's verifier wants the JIT for programs
 * 6.12 interprets), else where to read why. */
const char *sock_load_hint(bool verbose);

/* The HZ assumed when the kernel's cannot be found: Debian's. */
#define SOCK_FALLBACK_HZ	250

/* What every load needs first: the privileges, the kernel's BTF, and
 * it->config's knowledge of the kernel (HZ, /proc/net/udp's header).
 * *hz_guessed: HZ is SOCK_FALLBACK_HZ, for want of the kernel's. */
int sock_prepare(struct sockiter *it, bool *hz_guessed, struct kit_err *e);
/* The program loaded (by libbpf first with -v): 0 or a negative errno. */
int sock_load_prog(const struct sockiter *it,
		   const struct sockiter_loader *loader,
		   struct sockiter_prog *prog);
/* The program loaded and attached: the iterator's link, or -1. */
int sock_load(const struct sockiter *it, const struct sockiter_loader *loader,
	      struct sockiter_prog *prog, struct kit_err *e);
/* prog attached as an iterator: its link, or -1. */
int sock_attach(const struct sockiter *it, const struct sockiter_prog *prog,
		struct kit_err *e);
/* link pinned at it->pin_path, on a bpffs (mounted if need be). */
int sock_pin(const struct sockiter *it, int link, struct kit_err *e);

/* read() of an iterator: EINTR, and EAGAIN (a million sockets filtered
 * out in one read), retried.  The bytes read, 0 at the end, or -1 with
 * *e set. */
long sock_iter_read(int fd, void *buf, size_t len, struct kit_err *e);

/* HZ from one sample of jiffies and the monotonic clock; 0 when none of
 * the candidates fits clearly. */
__u32 sock_hz_from_jiffies(__u64 jiffies, __u64 now_ns);

#endif
