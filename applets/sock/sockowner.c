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
#include "sock/sockiter.h"
#include "sockowner.skel.h"
#include "sockowner.lskel.h"

static struct sock_owner_rec *owners;
static size_t nowners;

/* The program's fd, from the light skeleton, else through libbpf. */
static int load_owners(bool verbose)
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
		die_errno("cannot open the BPF task_file iterator for -p");
	if (sockowner__load(skel))
		die("cannot load the BPF task_file iterator for -p (Linux 5.8 "
		    "or later)%s", verbose ? "" : " (-v tells why)");
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

void sockiter_read_owners(bool verbose)
{
	int link, fd;
	size_t cap = 0, have = 0, got;
	char *buf = NULL;

	link = bpf_link_create(load_owners(verbose), 0,
			       BPF_TRACE_ITER, NULL);
	if (link < 0)
		die_errno("cannot attach the BPF task_file iterator for -p");
	fd = bpf_iter_create(link);
	if (fd < 0)
		die_errno("cannot read the BPF task_file iterator for -p");
	for (;;) {
		if (cap - have < 65536) {
			cap = cap ? 2 * cap : 1 << 20;
			buf = realloc(buf, cap);
			if (!buf)
				die("out of memory for -p's owners");
		}
		got = sockiter_read(fd, buf + have, cap - have);
		if (got == 0)
			break;
		have += got;
	}
	close(fd);
	close(link);
	owners = (struct sock_owner_rec *)buf;
	qsort(owners, have / sizeof(*owners), sizeof(*owners), by_inode);
	/* a thread with files of its own lists its process's again */
	for (size_t i = 0; i < have / sizeof(*owners); i++)
		if (!nowners || by_inode(&owners[nowners - 1], &owners[i]))
			owners[nowners++] = owners[i];
}

const struct sock_owner_rec *sockiter_owners_of(__u64 inode, size_t *n)
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
