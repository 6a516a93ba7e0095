/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tcpiter's and udpiter's command line: what differs between TCP and UDP
 * (struct sockiter_proto), the options parsed (struct sockiter), and the
 * state names the parser and the output share.
 */
#ifndef SOCKOPT_H
#define SOCKOPT_H

#include <linux/types.h>
#include <stdbool.h>

#include "../../bpf/sockrec.h"
#include "core/kit.h"

struct sockiter_loader;

/* What differs between TCP and UDP. */
struct sockiter_proto {
	const char *name;		/* "tcp": /proc/net/tcp, "TCP" in errors */
	const char *iter_func;		/* the kernel's bpf_iter_tcp */
	const char *header4;		/* /proc's headers, unpadded */
	const char *header6;
	int sl_width;			/* %4d or %5d */
	int width4;			/* IPv4 rows are padded to this */
	bool sort_by_sl;		/* UDP: /proc lists by hash slot */
	bool tcp_tail;			/* rto ato quick cwnd ssthresh, not drops */
	__u32 count_states;		/* the protocol's: -c lists them,
					 * kill -s with all is no filter */
	/* Its programs: the whole one; one without -i's reads and pin's
	 * text, which loads faster (NULL: none); kill's. */
	const struct sockiter_loader *loader, *lean_loader, *kill_loader;
};

enum sockiter_output {
	SOCK_OUT_PROC, SOCK_OUT_TABLE, SOCK_OUT_JSON, SOCK_OUT_COUNT
};

struct sockiter {
	const struct sockiter_proto *proto;
	struct sockiter_config config;	/* -i: config.want_info */
	enum sockiter_output output;
	bool no_header;
	bool verbose;
	bool all_netns;
	bool owners;			/* -p */
	bool kill;			/* kill */
	bool dry_run;			/* kill -n */
	const char *netns;		/* -N */
	const char *pin_path;		/* pin PATH */
	/* The applet's: a warning, or a -v line (kit_note()). */
	void (*note)(const char *line);
};

/* States by ss's names, and as ss's State column shows them. */
struct sock_state_names {
	const char *name, *label;
};
extern const struct sock_state_names sock_states[SOCK_TCP_STATES];

/* Parses the command line into *it: 0, KIT_HELP, or -1 with *e set
 * (usage errors, EXIT_USAGE). */
int sock_opt_parse(struct sockiter *it, const struct sockiter_proto *proto,
		   int argc, char **argv, struct kit_err *e);

/* -s NAME's states or'ed into *states: 0, or -1 for an unknown name. */
int sock_parse_state(const char *name, __u32 *states);
/* ADDR[/LEN] as an IPv6 prefix (IPv4 as ::ffff:a.b.c.d), net masked.
 * Returns 4 or 6, the family it was written in, or -1. */
int sock_parse_prefix(const char *s, __u32 net[4], __u32 mask[4]);

#endif
