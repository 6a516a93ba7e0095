// SPDX-License-Identifier: GPL-2.0
/*
 * tcpiter, udpiter -p: every open file of every task of the reader's pid
 * namespace (iter/task_file, Linux 5.8, commit eaaacd23910f) that is a
 * socket, as a struct sock_owner_rec; userspace joins them to the sockets
 * by inode number, as ss joins /proc/PID/fd's "socket:[INODE]" links.
 * Threads that share their process's files are walked once, by the kernel.
 */
#include "kernel_types.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_core_read.h>
#include "sockrec.h"

char LICENSE[] SEC("license") = "GPL";

#define S_IFMT		0170000
#define S_IFSOCK	0140000

SEC("iter/task_file")
int sock_owners(struct bpf_iter__task_file *ctx)
{
	struct task_struct *task = ctx->task;
	struct file *file = ctx->file;
	struct sock_owner_rec o = {};
	struct task_struct *reader, *leader;
	struct inode *inode;
	struct pid *pid;
	__u32 level;

	if (!task || !file)
		return 0;
	inode = BPF_CORE_READ(file, f_inode);
	if (!inode || (BPF_CORE_READ(inode, i_mode) & S_IFMT) != S_IFSOCK)
		return 0;
	o.inode = BPF_CORE_READ(inode, i_ino);
	o.fd = ctx->fd;
	/* The process's number in the reader's pid namespace, whose tasks
	 * the kernel walks: at the depth of the reader's own pid. */
	reader = (struct task_struct *)bpf_get_current_task();
	level = BPF_CORE_READ(reader, thread_pid, level);
	leader = BPF_CORE_READ(task, group_leader);
	pid = BPF_CORE_READ(leader, thread_pid);
	bpf_core_read(&o.pid, sizeof(o.pid), &pid->numbers[level].nr);
	/* The process's name, as /proc/PID/stat and so ss show it: its
	 * group leader's comm, kept while the leader is a zombie.  The task
	 * walked may be another thread: one with files of its own
	 * (unshare(CLONE_FILES)), or any once the leader has exited
	 * (task_seq_get_next() of kernel/bpf/task_iter.c skips only
	 * threads that share the leader's files). */
	bpf_core_read(o.comm, sizeof(o.comm), &leader->comm);
	bpf_seq_write(ctx->meta->seq, &o, sizeof(o));
	return 0;
}
