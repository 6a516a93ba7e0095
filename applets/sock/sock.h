/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The socket engine's public header, what tcpiter and udpiter include:
 * its runner (sockrun.c), which loads the program and does the walks,
 * kills, pins and output the command line (sockopt.h) asked for, with
 * the usage text the two applets share.  Errors are returned; warnings
 * and -v's lines go to it->note.
 */
#ifndef SOCK_H
#define SOCK_H

#include "sock/sockkill.h"
#include "sock/sockload.h"
#include "sock/sockopt.h"

/* The parts of tcpiter's and udpiter's usage that are the same. */
#define SOCKITER_USAGE_FILTERS \
"  --sport PORT    local port           --dport PORT   remote port\n" \
"  --src ADDR[/LEN] local address or prefix, IPv4 or IPv6\n" \
"  --dst ADDR[/LEN] remote address or prefix.  An IPv4 prefix also matches\n" \
"                  IPv4-mapped addresses (::ffff:a.b.c.d) of IPv6 sockets;\n" \
"                  an IPv6 one matches IPv6 sockets only\n" \
"  --uid UID       owner\n" \
"  The sl column keeps /proc's numbers when rows are filtered out.\n" \
"\n" \
"Network namespaces:\n" \
"  -N NETNS        walk NETNS: a name in /run/netns, a path such as\n" \
"                  /proc/PID/ns/net, or pid:PID; a bare PID when no name\n" \
"                  in /run/netns is that number (both: refused)\n" \
"  --all-netns     walk every network namespace (/proc/*/ns/net and\n" \
"                  /run/netns/*), each section after a line\n" \
"                  \"# netns net:[INODE] LABEL\" (-j: a \"netns\" field)\n"

/* The pin paragraph of PROTO's usage; ORDER says in which order rows come. */
#define SOCKITER_USAGE_PIN(PROTO, ORDER) \
"\n" \
"pin: load the iterator with its filters and pin it at PATH on bpffs\n" \
"(mounting bpffs at /sys/fs/bpf if needed).  Then every read of PATH, by\n" \
"any program (`cat PATH`), prints a fresh /proc/net/" PROTO " (-4) or " \
PROTO "6 (-6)\n" \
"table of the reader's network namespace, formatted in the kernel" ORDER \
".\n" \
"One table a file: pin twice for both.  Remove it with `rm PATH`.\n"

/* The kill paragraph of PROTO's usage; AFTER says what is left after. */
#define SOCKITER_USAGE_KILL(AFTER) \
"\n" \
"kill: close the sockets the filters select, listing each as -t does (the\n" \
"socket as it was), then a count.  From Linux 6.5 the program closes full\n" \
"sockets in the walk (bpf_sock_destroy()); TIME_WAIT and request sockets,\n" \
"and all on older kernels, are closed through inet_diag as ss -K does\n" \
"(CONFIG_INET_DIAG_DESTROY, and " SOCK_KILL_PRIVILEGES ").  " AFTER "\n" \
"Sockets not closed are reported, one line each, and kill exits 1.\n" \
"  -n              list what would be closed, close nothing\n" \
"  --all           close every socket: kill with no filter (both families,\n" \
"                  no address, port or uid, no state or -s all) is refused\n"

/*
 * tcpiter's and udpiter's work: argv parsed for proto, its program
 * loaded (kill: proto's kill program, if the kernel takes it), and what
 * the command line asked done; warnings and -v's lines to note.  The
 * exit status (kill: 1 when sockets were left), KIT_HELP, or -1 with *e.
 */
int sock_main(const struct sockiter_proto *proto, int argc, char **argv,
	      void (*note)(const char *line), struct kit_err *e);

#endif
