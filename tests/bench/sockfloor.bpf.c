// SPDX-License-Identifier: GPL-2.0
/*
 * The socket benchmark's floor: the kernel's walk of a TCP or UDP
 * iterator (ITER, "iter/tcp" or "iter/udp") with a program that does
 * nothing, pinned and read by cat (tests/bench/sock).
 */
#define SEC(name) __attribute__((section(name), used))

SEC(ITER) int walk_alone(void *ctx)
{
	return 0;
}

char _license[] SEC("license") = "GPL";
