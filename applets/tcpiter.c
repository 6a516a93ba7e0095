// SPDX-License-Identifier: GPL-2.0
/*
 * tcpiter: every TCP socket through the BPF TCP iterator, as /proc/net/tcp
 * and tcp6 show them, filtered in the kernel.  The shared machinery is in
 * applets/sockiter.c; the BPF program in bpf/tcpiter.bpf.c.
 */
#include <errno.h>
#include "kit.h"
#include "sockiter.h"
#include "tcpiter.skel.h"
#include "tcpiter.lskel.h"

static const char usage[] =
"Usage: tcpiter [-4|-6] [-t|-j|-c] [-H] [-v] [FILTER]... [-N NETNS | --all-netns]\n"
"       tcpiter pin -4|-6 [FILTER]... PATH\n"
"\n"
"Every TCP socket (full, TIME_WAIT and SYN_RECV request sockets, IPv4 and\n"
"IPv6) through the BPF TCP socket iterator.  Needs root (or CAP_BPF) and a\n"
"kernel with BTF, Linux 5.9 or later.\n"
"\n"
"Output (default: exactly what `cat /proc/net/tcp /proc/net/tcp6` prints):\n"
"  -4, -6          IPv4 (/proc/net/tcp) or IPv6 (/proc/net/tcp6) only\n"
"  -t              a table like `ss -tan`: state, queues, addresses, uid, inode\n"
"  -j              JSON Lines: one object per socket, every /proc field\n"
"  -c              counts per state and family, counted in the kernel\n"
"  -H              no header\n"
"  -v              libbpf's messages too\n"
"\n"
"Filters, evaluated in the kernel; they combine (and) with any output:\n"
"  -s STATE        established syn-sent syn-recv fin-wait-1 fin-wait-2\n"
"                  time-wait close close-wait last-ack listen closing, or\n"
"                  the groups connected (all but listen and close) and all;\n"
"                  repeat for more than one\n"
SOCKITER_USAGE_FILTERS
"\n"
"pin: load the iterator with its filters and pin it at PATH on bpffs\n"
"(mounting bpffs at /sys/fs/bpf if needed).  Then every read of PATH, by\n"
"any program (`cat PATH`), prints a fresh /proc/net/tcp (-4) or tcp6 (-6)\n"
"table of the reader's network namespace, formatted in the kernel.  One\n"
"table a file: pin twice for both.  Remove it with `rm PATH`.\n";

KIT_APPLET(tcpiter, "every TCP socket, as /proc/net/tcp, via a BPF iterator",
	   usage);

static const struct sockiter_proto tcp = {
	.name = "tcp",
	.iter_func = "bpf_iter_tcp",
	.header4 = "  sl  local_address rem_address   st tx_queue rx_queue "
		   "tr tm->when retrnsmt   uid  timeout inode",
	.header6 = "  sl  local_address                         "
		   "remote_address                        st tx_queue "
		   "rx_queue tr tm->when retrnsmt   uid  timeout inode",
	.sl_width = 4,
	.width4 = 149,
	.tcp_tail = true,
	.count_states = 0xffe,
};

SOCKITER_LOADER(tcpiter, tcp_iter);

int tcpiter_main(int argc, char **argv)
{
	struct sockiter it;

	sockiter_parse(&it, &tcp, argc, argv);
	return sockiter_run(&it, &tcpiter_loader);
}
