// SPDX-License-Identifier: GPL-2.0
/*
 * tcpiter: every TCP socket through the BPF TCP iterator, as /proc/net/tcp
 * and tcp6 show them, filtered in the kernel.  The shared machinery is the
 * socket engine, applets/sock/ (sockrun.c on top); the BPF program is
 * bpf/tcpiter.bpf.c.
 */
#include "core/kit.h"
#include "sock/sock.h"
#include "tcpiter.skel.h"
#include "tcpiter.lskel.h"
#include "tcpiter_lean.lskel.h"
#include "tcpkill.lskel.h"

static const char usage[] =
"Usage: tcpiter [-4|-6] [-t|-j|-c] [-p] [-i] [-H] [-v] [FILTER]... [-N NETNS | --all-netns]\n"
"       tcpiter pin -4|-6 [FILTER]... PATH\n"
"       tcpiter kill [-n] [-p] [-i] [-H] [-v] FILTER... | --all [-N NETNS]\n"
"\n"
"Every TCP socket (full, TIME_WAIT and SYN_RECV request sockets, IPv4 and\n"
"IPv6) through the BPF TCP socket iterator.  Needs root (or CAP_BPF and\n"
"CAP_PERFMON) and a kernel with BTF, Linux 5.9 or later.\n"
"\n"
"Output (default: exactly what `cat /proc/net/tcp /proc/net/tcp6` prints):\n"
"  -4, -6          IPv4 (/proc/net/tcp) or IPv6 (/proc/net/tcp6) only\n"
"  -t              a table like `ss -tan`: state, queues, addresses, uid, inode;\n"
"                  a listener's queues are its accept queue and backlog\n"
"  -j              JSON Lines: one object per socket, every /proc field\n"
"  -c              counts per state and family, counted in the kernel\n"
"  -p              with -t or -j: the processes that hold each socket, as\n"
"                  ss -p shows them (those of this pid namespace only)\n"
"  -i              with -t or -j: TCP's internals, read from each full\n"
"                  socket in the kernel: -t adds ss -tio's second line\n"
"                  (congestion control, options, rtt, mss, cwnd, bytes,\n"
"                  rates, ...), -j a \"tcp_info\" object\n"
"  -H              no header\n"
"  -v              libbpf's messages too\n"
"\n"
"Filters, evaluated in the kernel; they combine (and) with any output:\n"
"  -s STATE        established syn-sent syn-recv fin-wait-1 fin-wait-2\n"
"                  time-wait close close-wait last-ack listen closing, or\n"
"                  the groups connected (all but listen and close) and all;\n"
"                  repeat for more than one\n"
SOCKITER_USAGE_FILTERS
SOCKITER_USAGE_PIN("tcp", "")
SOCKITER_USAGE_KILL("The peer\n"
		    "sees a reset, the owner's next call fails with ECONNABORTED.");

KIT_APPLET(tcpiter, "every TCP socket, as /proc/net/tcp, via a BPF iterator",
	   usage);

SOCKITER_LOADER(tcpiter, tcp_iter);
SOCKITER_LIGHT_LOADER(tcpkill, tcp_iter);
SOCKITER_LOAD_LIGHT(tcpiter_lean, tcp_iter);

/* Neither pin nor -i: the program that leaves them out loads faster
 * (bpf/tcpiter.bpf.c); libbpf's fallback loads the whole one. */
static const struct sockiter_loader tcpiter_lean_loader = {
	.load_light = tcpiter_lean_load_light,
	.load_libbpf = tcpiter_load_libbpf,
};

static const struct sockiter_proto tcp = {
	.name = "tcp",
	.iter_func = "bpf_iter_tcp",
	.header4 = PROC_TCP_HEADER4,
	.header6 = PROC_TCP_HEADER6,
	.sl_width = PROC_TCP_SL_WIDTH,
	.width4 = PROC_TCP_WIDTH4,
	.tcp_tail = true,
	.count_states = SOCK_STATES_TCP,
	.loader = &tcpiter_loader,
	.lean_loader = &tcpiter_lean_loader,
	.kill_loader = &tcpkill_loader,
};

int tcpiter_main(int argc, char **argv)
{
	struct kit_err e;

	return kit_result(sock_main(&tcp, argc, argv, warn_line, &e), &e);
}
