// SPDX-License-Identifier: GPL-2.0
/*
 * tcpiter's and udpiter's command line, parsed into a struct sockiter:
 * the output form, the filters the BPF program applies, and what pin,
 * kill, -p and -i go with.
 */
#include <arpa/inet.h>
#include <getopt.h>
#include <string.h>

#include "core/kit.h"
#include "sock/sockopt.h"

/* States by ss's names, and as ss's State column shows them. */
const struct sock_state_names sock_states[SOCK_TCP_STATES] = {
	[SOCK_ST_ESTABLISHED] = { "established", "ESTAB" },
	[SOCK_ST_SYN_SENT] = { "syn-sent", "SYN-SENT" },
	[SOCK_ST_SYN_RECV] = { "syn-recv", "SYN-RECV" },
	[SOCK_ST_FIN_WAIT1] = { "fin-wait-1", "FIN-WAIT-1" },
	[SOCK_ST_FIN_WAIT2] = { "fin-wait-2", "FIN-WAIT-2" },
	[SOCK_ST_TIME_WAIT] = { "time-wait", "TIME-WAIT" },
	[SOCK_ST_CLOSE] = { "close", "UNCONN" },
	[SOCK_ST_CLOSE_WAIT] = { "close-wait", "CLOSE-WAIT" },
	[SOCK_ST_LAST_ACK] = { "last-ack", "LAST-ACK" },
	[SOCK_ST_LISTEN] = { "listen", "LISTEN" },
	[SOCK_ST_CLOSING] = { "closing", "CLOSING" },
};

int sock_parse_state(const char *name, __u32 *states)
{
	int i;

	if (!strcmp(name, "all")) {
		*states |= SOCK_STATES_TCP;
		return 0;
	}
	if (!strcmp(name, "connected")) {
		*states |= SOCK_STATES_TCP &
			   ~(1U << SOCK_ST_LISTEN | 1U << SOCK_ST_CLOSE);
		return 0;
	}
	/* ss's own spellings of two of them */
	if (!strcmp(name, "listening"))
		name = "listen";
	else if (!strcmp(name, "closed"))
		name = "close";
	for (i = 1; i < SOCK_TCP_STATES; i++) {
		if (sock_states[i].name && !strcmp(name, sock_states[i].name)) {
			*states |= 1U << i;
			return 0;
		}
	}
	return -1;
}

int sock_parse_prefix(const char *s, __u32 net[4], __u32 mask[4])
{
	unsigned char addr[16] = { 0 }, bits[16];
	const char *slash = strchr(s, '/');
	size_t n = slash ? (size_t)(slash - s) : strlen(s);
	char text[INET6_ADDRSTRLEN];
	unsigned long len, max;
	int i;

	if (n >= sizeof(text))
		return -1;
	memcpy(text, s, n);
	text[n] = '\0';
	if (inet_pton(AF_INET, text, addr + 12) == 1) {
		addr[10] = addr[11] = 0xff;
		max = 32;
	} else if (inet_pton(AF_INET6, text, addr) == 1) {
		max = 128;
	} else {
		return -1;
	}
	len = max;
	if (slash && parse_ulong(slash + 1, 10, 0, max, &len))
		return -1;
	len += 128 - max;
	for (i = 0; i < 16; i++) {
		long b = (long)len - 8 * i;

		bits[i] = b >= 8 ? 0xff : b <= 0 ? 0 : 0xff << (8 - b);
		addr[i] &= bits[i];
	}
	memcpy(net, addr, 16);
	memcpy(mask, bits, 16);
	return max == 32 ? 4 : 6;
}

static int parse_port(const char *opt, const char *s, __s32 *port,
		      struct kit_err *e)
{
	unsigned long v;

	if (parse_ulong(s, 10, 0, 65535, &v))
		return kit_fail(e, EXIT_USAGE, 0, "%s takes a port number "
				"0-65535, got '%s'", opt, s);
	*port = v;
	return 0;
}

static const char short_opts[] = "46tjcHpinvs:N:";
static const struct option long_opts[] = {
	{ "all", no_argument, NULL, 'L' },
	{ "sport", required_argument, NULL, 'S' },
	{ "dport", required_argument, NULL, 'D' },
	{ "src", required_argument, NULL, 'a' },
	{ "dst", required_argument, NULL, 'b' },
	{ "uid", required_argument, NULL, 'u' },
	{ "all-netns", no_argument, NULL, 'A' },
	{ NULL, 0, NULL, 0 },
};

/* *v6: whether the prefix was written in IPv6. */
static int prefix_option(const char *opt, const char *arg, __u32 net[4],
			 __u32 mask[4], bool *v6, struct kit_err *e)
{
	int family = sock_parse_prefix(arg, net, mask);

	if (family < 0)
		return kit_fail(e, EXIT_USAGE, 0,
				"%s takes ADDR[/LEN], got '%s'", opt, arg);
	*v6 = family == 6;
	return 0;
}

static int parse_filter(struct sockiter_filter *f, int opt, const char *arg,
			struct kit_err *e)
{
	unsigned long uid;

	switch (opt) {
	case 's':
		if (sock_parse_state(arg, &f->states))
			return kit_fail(e, EXIT_USAGE, 0, "unknown state '%s' "
					"(try established, listen, time-wait, "
					"..., connected, all)", arg);
		return 0;
	case 'S':
		return parse_port("--sport", arg, &f->sport, e);
	case 'D':
		return parse_port("--dport", arg, &f->dport, e);
	case 'a':
		return prefix_option("--src", arg, f->src, f->src_mask,
				     &f->src_v6, e);
	case 'b':
		return prefix_option("--dst", arg, f->dst, f->dst_mask,
				     &f->dst_v6, e);
	case 'u':
		if (parse_ulong(arg, 10, 0, 0xffffffffUL, &uid))
			return kit_fail(e, EXIT_USAGE, 0,
					"--uid takes a number, got '%s'", arg);
		f->uid = uid;
		return 0;
	}
	return 0;
}

static int check_pin_args(struct sockiter *it, int argc, char **argv,
			  int families, struct kit_err *e)
{
	if (optind != argc - 1)
		return kit_fail(e, EXIT_USAGE, 0, "pin takes one PATH");
	if (!*argv[optind])
		return kit_fail(e, EXIT_USAGE, 0, "pin takes one PATH, a new "
				"file on a bpffs (e.g. /sys/fs/bpf/%s), got ''",
				it->proto->name);
	it->pin_path = argv[optind];
	if (it->output != SOCK_OUT_PROC || it->no_header || it->netns ||
	    it->all_netns)
		return kit_fail(e, EXIT_USAGE, 0,
				"pin takes only -4/-6, filters and PATH");
	if (it->config.filter.families == 3)
		return kit_fail(e, EXIT_USAGE, 0, "pin makes one /proc table: "
				"%s -4 (/proc/net/%s) or -6 (/proc/net/%s6)%s",
				families ? "give" : "add", it->proto->name,
				it->proto->name, families ? ", not both" : "");
	it->config.mode = SOCK_MODE_TEXT;
	return 0;
}

/* -p and -i add to a row: only -t's and -j's have room, not /proc's. */
static int check_row_option(const struct sockiter *it, bool pin,
			    const char *opt, const char *what,
			    struct kit_err *e)
{
	if (pin || (it->output != SOCK_OUT_TABLE &&
		    it->output != SOCK_OUT_JSON))
		return kit_fail(e, EXIT_USAGE, 0, "%s goes with -t or -j: "
				"/proc's table has no column for %s", opt,
				what);
	return 0;
}

/*
 * Can the filter leave out any socket of the protocol?  Not when it has
 * both families, no address prefix (an IPv4 one leaves out IPv6 sockets
 * that are not IPv4-mapped, an IPv6 one, even ::/0, every IPv4 socket),
 * no port, no owner, and no state or every state of the protocol.
 */
static bool has_filter(const struct sockiter *it)
{
	const struct sockiter_filter *f = &it->config.filter;
	__u32 all = it->proto->count_states;
	int i;

	for (i = 0; i < 4; i++)
		if (f->src_mask[i] || f->dst_mask[i])
			return true;
	return f->src_v6 || f->dst_v6 || f->families != 3 ||
	       (f->states && (f->states & all) != all) || f->sport >= 0 ||
	       f->dport >= 0 || f->uid >= 0;
}

/* kill [-n] [--all] FILTER...: -t's rows of the sockets closed */
static int check_kill_args(struct sockiter *it, bool all, struct kit_err *e)
{
	if (it->output != SOCK_OUT_PROC && it->output != SOCK_OUT_TABLE)
		return kit_fail(e, EXIT_USAGE, 0, "kill lists the sockets it "
				"closes as -t does: no -j or -c");
	if (it->all_netns)
		return kit_fail(e, EXIT_USAGE, 0, "kill works in one network "
				"namespace: choose it with -N NETNS");
	if (!all && !has_filter(it))
		return kit_fail(e, EXIT_USAGE, 0, "kill with no filter closes "
				"every %s socket: add filters, or --all if "
				"that is what you mean", it->proto->name);
	it->output = SOCK_OUT_TABLE;
	it->config.want_kill = !it->dry_run;
	return 0;
}

/* -i: TCP's, and a form with room for it */
static int check_info(struct sockiter *it, bool pin, struct kit_err *e)
{
	if (!it->proto->tcp_tail)
		return kit_fail(e, EXIT_USAGE, 0,
				"-i shows TCP's internals: UDP sockets have "
				"none (tcpiter -i)");
	return check_row_option(it, pin, "-i", "TCP's internals", e);
}

/* The options' flags, set in *it; the filters in f. */
static int parse_options(struct sockiter *it, int argc, char **argv,
			 bool *all, int *families, struct kit_err *e)
{
	int opt;

	optind = 1;
	while ((opt = kit_getopt_err(argc, argv, short_opts, long_opts,
				     e)) != -1) {
		switch (opt) {
		case 'h':
			return KIT_HELP;
		case '?':
			return -1;
		case '4':
			*families |= 1 << SOCK_FAMILY_V4;
			break;
		case '6':
			*families |= 1 << SOCK_FAMILY_V6;
			break;
		case 't':
			it->output = SOCK_OUT_TABLE;
			break;
		case 'j':
			it->output = SOCK_OUT_JSON;
			break;
		case 'c':
			it->output = SOCK_OUT_COUNT;
			break;
		case 'H':
			it->no_header = true;
			break;
		case 'p':
			it->owners = true;
			break;
		case 'i':
			it->config.want_info = true;
			break;
		case 'n':
			it->dry_run = true;
			break;
		case 'L':
			*all = true;
			break;
		case 'v':
			it->verbose = true;
			break;
		case 'N':
			it->netns = optarg;
			break;
		case 'A':
			it->all_netns = true;
			break;
		case 's': case 'S': case 'D': case 'a': case 'b': case 'u':
			if (parse_filter(&it->config.filter, opt, optarg, e))
				return -1;
			break;
		}
	}
	/* Filters combine (and): --sport 1 --sport 2 would match none, and
	 * kill must not act on the last of them alone. */
	return opt_exclusive("tjc", e) || opt_exclusive("NA", e) ||
	       opt_once("SDabuN", e) ? -1 : 0;
}

/* What the options ask of each other. */
static int check_options(struct sockiter *it, bool pin, bool all,
			 struct kit_err *e)
{
	if (it->netns && !*it->netns)
		return kit_fail(e, EXIT_USAGE, 0,
				"-N takes a network namespace: a name in "
				"/run/netns, a path or pid:PID");
	if ((it->dry_run || all) && !it->kill)
		return kit_fail(e, EXIT_USAGE, 0, "%s goes with kill",
				it->dry_run ? "-n" : "--all");
	if (it->no_header && it->output == SOCK_OUT_JSON)
		return kit_fail(e, EXIT_USAGE, 0, "-H goes with the tables: "
				"-j's JSON Lines have no header");
	if (it->kill && check_kill_args(it, all, e))
		return -1;
	if (it->owners && check_row_option(it, pin, "-p", "processes", e))
		return -1;
	if (it->config.want_info && check_info(it, pin, e))
		return -1;
	return 0;
}

int sock_opt_parse(struct sockiter *it, const struct sockiter_proto *proto,
		   int argc, char **argv, struct kit_err *e)
{
	struct sockiter_filter *f = &it->config.filter;
	bool pin = false, all = false;
	int families = 0, ret;

	memset(it, 0, sizeof(*it));
	it->proto = proto;
	f->sport = f->dport = -1;
	f->uid = -1;
	ret = parse_options(it, argc, argv, &all, &families, e);
	if (ret)
		return ret;
	/* kill or pin: the first word that is no option, before the options
	 * or after them (getopt_long() moved the words behind them). */
	if (optind < argc && (!strcmp(argv[optind], "kill") ||
			      !strcmp(argv[optind], "pin"))) {
		it->kill = argv[optind][0] == 'k';
		pin = !it->kill;
		optind++;
	}
	f->families = families ? families : 3;
	if (check_options(it, pin, all, e))
		return -1;
	if (pin && check_pin_args(it, argc, argv, families, e))
		return -1;
	if (!pin && optind < argc)
		return kit_fail(e, EXIT_USAGE, 0, "unexpected argument '%s'",
				argv[optind]);
	if (it->output == SOCK_OUT_COUNT)
		it->config.mode = SOCK_MODE_COUNT;
	it->config.listeners_only = it->config.mode == SOCK_MODE_RECORDS &&
				    it->proto->tcp_tail && !it->kill &&
				    f->states == 1U << SOCK_ST_LISTEN;
	it->config.want_pointer = it->output == SOCK_OUT_PROC ||
				  it->output == SOCK_OUT_JSON;
	return 0;
}
