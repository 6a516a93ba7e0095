// SPDX-License-Identifier: GPL-2.0
/*
 * udpiter: every UDP socket through the BPF UDP iterator, as /proc/net/udp
 * and udp6 show them, filtered in the kernel.  The shared machinery is the
 * socket engine, applets/sock/ (sockrun.c on top); the BPF program is
 * bpf/udpiter.bpf.c.
 */
#include "core/kit.h"
#include "sock/sock.h"
#include "udpiter.skel.h"
#include "udpiter.lskel.h"
#include "udpkill.lskel.h"

static const char usage[] =
"Usage: udpiter [-4|-6] [-t|-j|-c] [-p] [-H] [-v] [FILTER]... [-N NETNS | --all-netns]\n"
"       udpiter pin -4|-6 [FILTER]... PATH\n"
"       udpiter kill [-n] [-p] [-H] [-v] FILTER... | --all [-N NETNS]\n"
"\n"
"Every UDP socket (IPv4 and IPv6, IPv4-mapped ones in the IPv6 table as\n"
"/proc has them) through the BPF UDP socket iterator.  Needs root (or\n"
"CAP_BPF and CAP_PERFMON) and a kernel with BTF, Linux 5.9 or later.\n"
"\n"
"Output (default: exactly what `cat /proc/net/udp /proc/net/udp6` prints;\n"
"sl is the socket's hash slot, as in /proc):\n"
"  -4, -6          IPv4 (/proc/net/udp) or IPv6 (/proc/net/udp6) only\n"
"  -t              a table like `ss -uan`: state, queues, addresses, uid, inode\n"
"  -j              JSON Lines: one object per socket, every /proc field\n"
"  -c              counts of established and unconnected (close) sockets\n"
"                  per family, counted in the kernel\n"
"  -p              with -t or -j: the processes that hold each socket, as\n"
"                  ss -p shows them (those of this pid namespace only)\n"
"  -H              no header\n"
"  -v              libbpf's messages too\n"
"\n"
"Filters, evaluated in the kernel; they combine (and) with any output:\n"
"  -s STATE        established, or close (unconnected: ss's UNCONN); the\n"
"                  TCP names and the groups connected and all are accepted\n"
"                  too; repeat for more than one\n"
SOCKITER_USAGE_FILTERS
SOCKITER_USAGE_PIN("udp", " (from\n"
		   "Linux 6.5 in the kernel's walk order, not sorted by sl)")
SOCKITER_USAGE_KILL("The owner's next\n"
		    "call fails with ECONNABORTED; a socket bound to a port stays,\n"
		    "unconnected.");

KIT_APPLET(udpiter, "every UDP socket, as /proc/net/udp, via a BPF iterator",
	   usage);

SOCKITER_LOADER(udpiter, udp_iter);
SOCKITER_LIGHT_LOADER(udpkill, udp_iter);

static const struct sockiter_proto udp = {
	.name = "udp",
	.iter_func = "bpf_iter_udp",
	.header4 = PROC_UDP_HEADER4,
	.header6 = PROC_UDP_HEADER6,
	.sl_width = PROC_UDP_SL_WIDTH,
	.width4 = PROC_UDP_WIDTH4,
	.sort_by_sl = true,
	.count_states = SOCK_STATES_UDP,
	.loader = &udpiter_loader,
	.kill_loader = &udpkill_loader,
};

int udpiter_main(int argc, char **argv)
{
	struct kit_err e;

	return kit_result(sock_main(&udp, argc, argv, warn_line, &e), &e);
}
