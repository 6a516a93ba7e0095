// SPDX-License-Identifier: GPL-2.0
/*
 * tcpiter, udpiter -p: the processes that hold each socket.  One walk of
 * every task's open files in the kernel (bpf/sockowner.bpf.c), where ss
 * -p reads every /proc/PID/fd link; the sockets found are sorted by inode
 * number, and each row of the socket walk looks its inode up.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "core/kit.h"
#include "sock/sockload.h"
#include "sock/sockowner.h"
#include "sockowner.skel.h"
#include "sockowner.lskel.h"

static struct sock_owner_rec *owners;
static size_t nowners;

/* The program's fd, from the light skeleton, else through libbpf; or
 * -1. */
static int load_owners(bool verbose, struct kit_err *e)
{
	struct sockowner_light *light = verbose ? NULL : sockowner_light__open();
	struct sockowner *skel;

	if (light) {
		if (!sockowner_light__load(light))
			return light->progs.sock_owners.prog_fd;
		sockowner_light__destroy(light);
	}
	skel = sockowner__open();
	if (!skel)
		return kit_fail(e, EXIT_RUNTIME, errno,
				"cannot open the BPF task_file iterator for "
				"-p");
	if (sockowner__load(skel))
		return kit_fail(e, EXIT_RUNTIME, 0, "cannot load the BPF "
				"task_file iterator for -p (Linux 5.8 or "
				"later)%s", sock_load_hint(verbose));
	return bpf_program__fd(skel->progs.sock_owners);
}

/* By inode, then as ss lists them: the last process and fd first. */
static int by_inode(const void *x, const void *y)
{
	const struct sock_owner_rec *a = x, *b = y;

	if (a->inode != b->inode)
		return a->inode < b->inode ? -1 : 1;
	if (a->pid != b->pid)
		return a->pid > b->pid ? -1 : 1;
	return a->fd > b->fd ? -1 : a->fd < b->fd;
}

/* Every record of the iterator's at fd, in *buf: their bytes, or -1. */
static long read_all(int fd, char **buf, struct kit_err *e)
{
	size_t cap = 0, have = 0;
	char *more;
	long got;

	for (;;) {
		/* 64 KiB free at least; 1 MiB to start with. */
		more = grow(*buf, &cap, have + 65536 > 1 << 20 ?
			    have + 65536 : 1 << 20, 1);
		if (!more)
			return kit_fail(e, EXIT_RUNTIME, 0, "out of memory for "
					"-p's owners");
		*buf = more;
		got = sock_iter_read(fd, *buf + have, cap - have, e);
		if (got <= 0)
			return got < 0 ? -1 : (long)have;
		have += got;
	}
}

/* The records, sorted, each socket's owners once. */
static void take_owners(char *buf, size_t len)
{
	owners = (struct sock_owner_rec *)buf;
	qsort(owners, len / sizeof(*owners), sizeof(*owners), by_inode);
	/* a thread with files of its own lists its process's again */
	for (size_t i = 0; i < len / sizeof(*owners); i++)
		if (!nowners || by_inode(&owners[nowners - 1], &owners[i]))
			owners[nowners++] = owners[i];
}

int sock_read_owners(bool verbose, struct kit_err *e)
{
	int prog = load_owners(verbose, e), link, fd;
	char *buf = NULL;
	long len;

	if (prog < 0)
		return -1;
	link = bpf_link_create(prog, 0, BPF_TRACE_ITER, NULL);
	if (link < 0)
		return kit_fail(e, EXIT_RUNTIME, errno,
				"cannot attach the BPF task_file iterator "
				"for -p");
	fd = bpf_iter_create(link);
	if (fd < 0) {
		kit_fail(e, EXIT_RUNTIME, errno,
			 "cannot read the BPF task_file iterator for -p");
		close(link);
		return -1;
	}
	len = read_all(fd, &buf, e);
	close(fd);
	close(link);
	if (len < 0) {
		free(buf);
		return -1;
	}
	take_owners(buf, len);
	return 0;
}

const struct sock_owner_rec *sock_owners_of(__u64 inode, size_t *n)
{
	size_t lo = 0, hi = nowners, mid;

	while (lo < hi) {		/* the first at or past inode */
		mid = lo + (hi - lo) / 2;
		if (owners[mid].inode < inode)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (*n = 0; lo + *n < nowners && owners[lo + *n].inode == inode;)
		(*n)++;
	return owners + lo;
}
