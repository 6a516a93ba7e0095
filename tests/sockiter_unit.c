// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of the socket engine's layers, linked as the applets link
 * them (the engine's objects: the Makefile's unit_objs): address
 * prefixes and state names (sockopt), jiffies to clock_t (the code the
 * BPF programs run), HZ from a jiffies sample (sockload), records taken
 * from the program's output (sockwalk) and formatted (sockfmt,
 * sockinfo).  The formatter writes to
 * stdout: capture() puts a file in its place.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "sock/sockfmt.h"
#include "sock/sockinfo.h"
#include "sock/sockload.h"
#include "sock/sockopt.h"
#include "sock/sockwalk.h"
#include "unit.h"

static int saved_stdout = -1, capture_fd = -1;

/* What the formatter writes from here on goes to a file. */
static void capture(void)
{
	fflush(stdout);
	saved_stdout = dup(STDOUT_FILENO);
	capture_fd = memfd_create("sockiter_unit", 0);
	dup2(capture_fd, STDOUT_FILENO);
}

/* What it wrote since capture(), flushed; stdout back. */
static const char *captured(void)
{
	static char got[16384];
	ssize_t n;

	sock_fmt_flush();
	dup2(saved_stdout, STDOUT_FILENO);
	close(saved_stdout);
	n = pread(capture_fd, got, sizeof(got) - 1, 0);
	close(capture_fd);
	got[n > 0 ? n : 0] = '\0';
	return got;
}

static int prefix_is(const char *s, int family, const char *net_hex,
		     const char *mask_hex)
{
	__u32 net[4], mask[4];
	char n[33], m[33];
	unsigned char *nb = (void *)net, *mb = (void *)mask;
	int i;

	if (sock_parse_prefix(s, net, mask) != family)
		return 0;
	for (i = 0; i < 16; i++) {
		sprintf(n + 2 * i, "%02x", nb[i]);
		sprintf(m + 2 * i, "%02x", mb[i]);
	}
	return !strcmp(n, net_hex) && !strcmp(m, mask_hex);
}

static void test_prefixes(void)
{
	static const struct {
		const char *name, *spec;
		int family;
		const char *net, *mask;
	} cases[] = {
		{ "IPv4 address: ::ffff:a.b.c.d/128, family 4", "127.0.0.1", 4,
		  "00000000000000000000ffff7f000001",
		  "ffffffffffffffffffffffffffffffff" },
		{ "IPv4 prefix /8: masked, mask /104", "10.1.2.3/8", 4,
		  "00000000000000000000ffff0a000000",
		  "ffffffffffffffffffffffffff000000" },
		{ "IPv4 /0 still demands an IPv4(-mapped) address", "0.0.0.0/0",
		  4, "00000000000000000000ffff00000000",
		  "ffffffffffffffffffffffff00000000" },
		{ "IPv6 prefix /10, family 6", "fe80::1/10", 6,
		  "fe800000000000000000000000000000",
		  "ffc00000000000000000000000000000" },
		{ "IPv6 ::1", "::1", 6, "00000000000000000000000000000001",
		  "ffffffffffffffffffffffffffffffff" },
		{ "IPv6 /0 matches any IPv6 address", "::/0", 6,
		  "00000000000000000000000000000000",
		  "00000000000000000000000000000000" },
	};
	__u32 net[4], mask[4];
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		check(cases[i].name, prefix_is(cases[i].spec, cases[i].family,
					       cases[i].net, cases[i].mask));
	check("refused: /33 on IPv4, /129 on IPv6, empty or signed length, "
	      "junk",
	      sock_parse_prefix("10.0.0.0/33", net, mask) < 0 &&
	      sock_parse_prefix("::/129", net, mask) < 0 &&
	      sock_parse_prefix("10.0.0.0/", net, mask) < 0 &&
	      sock_parse_prefix("10.0.0.0/-1", net, mask) < 0 &&
	      sock_parse_prefix("10.0.0.0/0x8", net, mask) < 0 &&
	      sock_parse_prefix("example.com", net, mask) < 0 &&
	      sock_parse_prefix("", net, mask) < 0);
}

static void test_states(void)
{
	__u32 states = 0;

	check("states by ss's names",
	      !sock_parse_state("established", &states) &&
	      !sock_parse_state("listen", &states) &&
	      !sock_parse_state("time-wait", &states) &&
	      states == (1U << 1 | 1U << 10 | 1U << 6));
	states = 0;
	check("ss's spellings listening and closed",
	      !sock_parse_state("listening", &states) &&
	      !sock_parse_state("closed", &states) &&
	      states == (1U << 10 | 1U << 7));
	states = 0;
	check("connected: all but listen and close",
	      !sock_parse_state("connected", &states) && states == 0xffeU - 0x480);
	states = 0;
	check("all: states 1 to 11",
	      !sock_parse_state("all", &states) && states == 0xffe);
	check("unknown states refused",
	      sock_parse_state("estab", &states) && sock_parse_state("", &states) &&
	      sock_parse_state("new-syn-recv", &states));
}

static void test_jiffies(void)
{
	check("HZ=250: 50 jiffies are 20 ticks (TICK_NSEC branch)",
	      jiffies_to_clock_t(50, 250) == 20);
	check("HZ=250: 1 s (250 jiffies) is 100 ticks, not 125",
	      jiffies_to_clock_t(250, 250) == 100);
	check("HZ=1000: 200 jiffies are 20 ticks",
	      jiffies_to_clock_t(200, 1000) == 20);
	check("HZ=100: ticks are jiffies", jiffies_to_clock_t(37, 100) == 37);
	check("HZ=300: 60 jiffies are 19 ticks (rounds down)",
	      jiffies_to_clock_t(60, 300) == 19);
	check("a due timer shows 0",
	      jiffies_delta_to_clock_t(-5, 250) == 0 &&
	      jiffies_delta_to_clock_t(0, 250) == 0);
	check("a timer 3 s away at HZ=250 shows 300",
	      jiffies_delta_to_clock_t(750, 250) == 300);
}

static void test_hz(void)
{
	/* seen on a 6.18 kernel with HZ=250, an hour after boot */
	check("HZ 250 from jiffies 4295816875 at 3698.456 s",
	      sock_hz_from_jiffies(4295816875ULL, 3698456843601ULL) == 250);
	check("HZ 1000 from a sample of a HZ=1000 kernel",
	      sock_hz_from_jiffies(4294667296ULL + 3600000ULL + 3,
			      3600000000000ULL) == 1000);
	check("HZ 100 soon after boot",
	      sock_hz_from_jiffies(4294937296ULL + 1000, 10000000000ULL) == 100);
	check("no answer at 5 minutes of uptime, when all HZ agree",
	      sock_hz_from_jiffies(4294967296ULL, 300000000000ULL) == 0);
	check("no answer for nonsense", sock_hz_from_jiffies(12345, 1) == 0);
}

/* The widths tcpiter and udpiter use (bpf/sockrec.h); the rows below
 * are /proc's, written out. */
static const struct sockiter_proto tcp = {
	.sl_width = PROC_TCP_SL_WIDTH, .width4 = PROC_TCP_WIDTH4,
	.tcp_tail = true,
};
static const struct sockiter_proto udp = {
	.sl_width = PROC_UDP_SL_WIDTH, .width4 = PROC_UDP_WIDTH4,
};

static int row_is(const struct sockiter_proto *proto,
		  const struct sock_rec *r, const char *ptr, const char *want,
		  int width)
{
	char buf[SOCK_ROW_MAX], *end;
	size_t len;

	end = sock_format_proc_row(buf, proto, r, ptr, strlen(ptr));
	*end = '\0';
	len = strlen(want);
	if (strncmp(buf, want, len) || (int)strlen(buf) != (width > (int)len ?
						 width : (int)len) + 1)
		return printf("    got  \"%s\"\n    want \"%s\"\n", buf, want), 0;
	return end[-1] == '\n';
}

static void test_rows(void)
{
	struct sock_rec listen = {
		.src = { 0 }, .sport = 2024, .state = 10, .uid = 0,
		.inode = 1088, .refcnt = 1, .rto = 100, .cwnd = 10,
		.family = SOCK_FAMILY_V4,
	};
	struct sock_rec est6 = {
		.src = { 0, 0, 0, 0x01000000 }, .dst = { 0, 0, 0, 0x01000000 },
		.sl = 12345, .sport = 45679, .dport = 33914, .state = 1,
		.tx_queue = 0x64, .timer = 1, .when = 0x1234567890ULL,
		.retransmits = 2, .uid = 123456, .probes = 3, .inode = 59988,
		.refcnt = 2, .rto = 20, .ato = 4, .quick_pingpong = 30,
		.cwnd = 10, .ssthresh = -1, .family = SOCK_FAMILY_V6,
	};
	struct sock_rec tw = {
		.src = { 0x020200C0 }, .dst = { 0x507100CB }, .sl = 1,
		.sport = 0x8D02, .dport = 80, .state = 6, .timer = 3,
		.when = 0x100B, .refcnt = 3, .family = SOCK_FAMILY_V4,
		.kind = SOCK_KIND_TIMEWAIT,
	};
	struct sock_rec udp6 = {
		.src = { 0, 0, 0xFFFF0000, 0x0100007F },
		.dst = { 0, 0, 0xFFFF0000, 0x0100007F }, .sl = 10453,
		.sport = 0xC470, .dport = 0x9C41, .state = 1, .inode = 61306,
		.refcnt = 2, .drops = 7, .tx_queue = -1U,
		.family = SOCK_FAMILY_V6,
	};

	check("tcp listener row, padded to 149",
	      row_is(&tcp, &listen, "000000007ca2a05b",
		     "   0: 00000000:07E8 00000000:0000 0A 00000000:00000000 "
		     "00:00000000 00000000     0        0 1088 1 "
		     "000000007ca2a05b 100 0 0 10 0", 149));
	check("tcp6 row: wide sl, long timer and uid, -1 ssthresh, no pad",
	      row_is(&tcp, &est6, "00000000ff8f21c1",
		     "12345: 00000000000000000000000001000000:B26F "
		     "00000000000000000000000001000000:847A 01 "
		     "00000064:00000000 01:1234567890 00000002 123456        3 "
		     "59988 2 00000000ff8f21c1 20 4 30 10 -1", 0));
	check("tcp TIME_WAIT row: no tail",
	      row_is(&tcp, &tw, "00000000596d26dd",
		     "   1: 020200C0:8D02 507100CB:0050 06 00000000:00000000 "
		     "03:0000100B 00000000     0        0 0 3 00000000596d26dd",
		     149));
	check("udp6 row with a mapped address, drops, tx -1 as FFFFFFFF",
	      row_is(&udp, &udp6, "000000008802c9c1",
		     "10453: 0000000000000000FFFF00000100007F:C470 "
		     "0000000000000000FFFF00000100007F:9C41 01 "
		     "FFFFFFFF:00000000 00:00000000 00000000     0        0 "
		     "61306 2 000000008802c9c1 7", 0));
	udp6.family = SOCK_FAMILY_V4;
	udp6.src[0] = udp6.dst[0] = 0x0100007F;
	check("udp row padded to 127",
	      row_is(&udp, &udp6, "000000008802c9c1",
		     "10453: 0100007F:C470 0100007F:9C41 01 FFFFFFFF:00000000 "
		     "00:00000000 00000000     0        0 61306 2 "
		     "000000008802c9c1 7", 127));
}

/* -p's owners, for the rows below: sorted as sockowner.c sorts them. */
static const struct sock_owner_rec fake_owners[] = {
	{ .inode = 4711, .pid = 812, .fd = 3, .comm = "sshd" },
	{ .inode = 4711, .pid = 7, .fd = 4, .comm = "a\"b c" },
};

/* The row sock_fmt_row() writes for w is want; -p's owners: those of
 * fake_owners' inode. */
static int printed_row(const struct sockiter *it, const struct sockiter_row *w,
		       const char *netns, const char *want)
{
	size_t n = w->r.inode == fake_owners[0].inode ? 2 : 0;
	const char *got;

	capture();
	sock_fmt_row(it, w, netns, fake_owners, n);
	got = captured();
	if (strcmp(got, want))
		return printf("    got  \"%s\"\n    want \"%s\"\n", got, want), 0;
	return 1;
}

static int printed(const struct sockiter *it, const struct sock_rec *r,
		   const char *netns, const char *want)
{
	struct sockiter_row w = { .r = *r, .ptr = "0a", .ptr_len = 2 };

	return printed_row(it, &w, netns, want);
}

/* est4 below in JSON, with inode INODE, up to its last field */
#define JSON_EST4(INODE) "{\"family\":\"inet\",\"kind\":\"timewait\",\"sl\":0," \
	"\"local_address\":\"127.0.0.1\",\"local_port\":40000," \
	"\"remote_address\":\"255.255.255.255\",\"remote_port\":80," \
	"\"st\":1,\"state\":\"established\",\"tx_queue\":0," \
	"\"rx_queue\":-1,\"tr\":0,\"tm_when\":0,\"retrnsmt\":0," \
	"\"uid\":1000,\"timeout\":0,\"inode\":" INODE ",\"ref\":-1," \
	"\"pointer\":\"0a\""

static void test_forms(void)
{
	struct sock_rec listen6 = {
		.sport = 22, .state = SOCK_ST_LISTEN, .max_backlog = 128,
		.tx_queue = 5, .rx_queue = 3, .uid = 0, .inode = 4711,
		.family = SOCK_FAMILY_V6, .src = { 0, 0, 0, 0x01000000 },
	};
	struct sock_rec est4 = {
		.sport = 40000, .dport = 80, .state = SOCK_ST_ESTABLISHED,
		.uid = 1000, .inode = 1, .family = SOCK_FAMILY_V4,
		.src = { 0x0100007F }, .dst = { 0xFFFFFFFF }, .refcnt = -1U,
		.rx_queue = -1U, .kind = SOCK_KIND_TIMEWAIT,
	};
	struct sockiter table = { .proto = &tcp, .output = SOCK_OUT_TABLE };
	struct sockiter json = { .proto = &tcp, .output = SOCK_OUT_JSON };

	check("table: an IPv6 listener, its backlog as Send-Q, peer :*",
	      printed(&table, &listen6, NULL,
		      "LISTEN           3    128 [::1]:22                    "
		      "[::]:*                           0 4711\n"));
	check("table: IPv4 in dotted quads",
	      printed(&table, &est4, NULL,
		      "ESTAB       4294967295      0 127.0.0.1:40000            "
		      " 255.255.255.255:80            1000 1\n"));
	check("json: a TCP time-wait row, signed rx_queue and ref, netns "
	      "escaped",
	      printed(&json, &est4, "a\"b\\c\n",
		      "{\"family\":\"inet\",\"netns\":\"a\\\"b\\\\c\\u000a\","
		      "\"kind\":\"timewait\",\"sl\":0,"
		      "\"local_address\":\"127.0.0.1\",\"local_port\":40000,"
		      "\"remote_address\":\"255.255.255.255\",\"remote_port\":80,"
		      "\"st\":1,\"state\":\"established\",\"tx_queue\":0,"
		      "\"rx_queue\":-1,\"tr\":0,\"tm_when\":0,\"retrnsmt\":0,"
		      "\"uid\":1000,\"timeout\":0,\"inode\":1,\"ref\":-1,"
		      "\"pointer\":\"0a\"}\n"));
	table.owners = json.owners = true;
	check("table -p: ss's users:(...), the comm as it is",
	      printed(&table, &listen6, NULL,
		      "LISTEN           3    128 [::1]:22                    "
		      "[::]:*                           0 4711 users:((\"sshd\","
		      "pid=812,fd=3),(\"a\"b c\",pid=7,fd=4))\n"));
	check("table -p: a socket nobody holds has no users",
	      printed(&table, &est4, NULL,
		      "ESTAB       4294967295      0 127.0.0.1:40000            "
		      " 255.255.255.255:80            1000 1\n"));
	check("json -p: a socket nobody holds: owners []",
	      printed(&json, &est4, NULL, JSON_EST4("1") ",\"owners\":[]}\n"));
	est4.inode = 4711;
	check("json -p: owners, the comm escaped",
	      printed(&json, &est4, NULL, JSON_EST4("4711") ",\"owners\":[{\"comm\":"
		      "\"sshd\",\"pid\":812,\"fd\":3},{\"comm\":\"a\\\"b c\","
		      "\"pid\":7,\"fd\":4}]}\n"));
}

/* -i: an established socket's internals, as a 6.18 kernel gave them
 * (ss -tnio printed the same line) */
static const struct sock_info est_info = {
	.cong = "bbr", .options = SOCK_OPT_TS | SOCK_OPT_SACK | SOCK_OPT_WSCALE,
	.snd_wscale = 10, .rcv_wscale = 10, .rto = 204000, .rtt = 16,
	.rttvar = 9, .ato = 40000, .snd_mss = 50176, .pmtu = 65535,
	.rcv_mss = 34518, .advmss = 65483, .cwnd = 11,
	.ssthresh = 0x7fffffff, .bytes_sent = 3000, .bytes_acked = 3000,
	.bytes_received = 100000, .segs_out = 3, .segs_in = 6,
	.data_segs_out = 1, .data_segs_in = 3, .last_data_sent = 896,
	.last_data_recv = 896, .last_ack_recv = 896,
	.pacing_rate = 52025596899, .max_pacing_rate = SOCK_INFO_NONE,
	.delivery_rate = 12544000000, .delivered = 2, .app_limited = 1,
	.reordering = 3, .rcv_rtt = 20, .rcv_space = 65483,
	.rcv_ssthresh = 94833, .min_rtt = 4, .snd_wnd = 100352,
	.rcv_wnd = 95232,
};

#define EST_INFO_LINE "\t ts sack bbr wscale:10,10 rto:204 rtt:0.016/0.009 " \
	"ato:40 mss:50176 pmtu:65535 rcvmss:34518 advmss:65483 cwnd:11 " \
	"bytes_sent:3000 bytes_acked:3000 bytes_received:100000 segs_out:3 " \
	"segs_in:6 data_segs_out:1 data_segs_in:3 send 275968000000bps " \
	"lastsnd:896 lastrcv:896 lastack:896 pacing_rate 416204775192bps " \
	"delivery_rate 100352000000bps delivered:2 app_limited rcv_rtt:0.02 " \
	"rcv_space:65483 rcv_ssthresh:94833 minrtt:0.004 snd_wnd:100352 " \
	"rcv_wnd:95232\n"

/* The row with info sock_fmt_row() writes is want. */
static int printed_info(const struct sockiter *it, const struct sock_rec *r,
			const struct sock_info *in, const char *want)
{
	static struct sockiter_row w = { .ptr = "0a", .ptr_len = 2 };

	w.r = *r;
	w.info = *in;
	return printed_row(it, &w, NULL, want);
}

static int ms_is(__u32 us, const char *want)
{
	char buf[32];

	*sock_put_ms(buf, us) = '\0';
	if (strcmp(buf, want))
		return printf("    %u us: got \"%s\", want \"%s\"\n", us, buf,
			      want), 0;
	return 1;
}

static void test_info(void)
{
	struct sock_rec est = {
		.sport = 7998, .dport = 58848, .state = SOCK_ST_ESTABLISHED,
		.inode = 9, .family = SOCK_FAMILY_V4, .src = { 0x0100007F },
		.dst = { 0x0100007F },
	};
	struct sock_rec listen = est;
	struct sock_info lin = { .cong = "cubic", .cwnd = 10, .reordering = 3,
				 .pacing_rate = SOCK_INFO_NONE,
				 .max_pacing_rate = SOCK_INFO_NONE,
				 .unacked = 2, .sacked = 128,
				 .min_rtt = SOCK_INFO_NO_RTT };
	struct sock_info odd = est_info;
	struct sockiter table = { .proto = &tcp, .output = SOCK_OUT_TABLE,
				  .config.want_info = true };
	struct sockiter json = { .proto = &tcp, .output = SOCK_OUT_JSON,
				 .config.want_info = true };
	struct sock_rec tw = est;
	const char *out;

	listen.state = SOCK_ST_LISTEN;
	listen.dport = 0;
	check("%g of ms: 0.016, 0.02, 0.5, 40, 1.234, 999.999, 1234.57, 3e+06",
	      ms_is(16, "0.016") && ms_is(20, "0.02") && ms_is(500, "0.5") &&
	      ms_is(40000, "40") && ms_is(1234, "1.234") &&
	      ms_is(999999, "999.999") && ms_is(1234567, "1234.57") &&
	      ms_is(3000000000U, "3e+06"));
	check("table -i: ss -tio's line after an established socket's row",
	      printed_info(&table, &est, &est_info,
			   "ESTAB            0      0 127.0.0.1:7998              "
			   "127.0.0.1:58848                  0 9\n" EST_INFO_LINE));
	check("table -i: a listener: cc and cwnd; its backlog is no sacked",
	      printed_info(&table, &listen, &lin,
			   "LISTEN           0      0 127.0.0.1:7998              "
			   "127.0.0.1:*                      0 9\n"
			   "\t cubic cwnd:10 unacked:2\n"));
	odd.options = SOCK_OPT_ECN | SOCK_OPT_ECN_SEEN | SOCK_OPT_SYN_DATA;
	odd.ssthresh = 7;
	odd.rtt = 1500000;
	odd.backoff = 2;
	odd.busy_time = 3000000;
	odd.rwnd_limited = 1000000;
	odd.sndbuf_limited = 500000;
	odd.retrans = 1;
	odd.total_retrans = 4;
	odd.reordering = 5;
	odd.min_rtt = SOCK_INFO_NO_RTT;
	odd.pacing_rate = 1000;
	odd.max_pacing_rate = 2000;
	odd.sacked = 3;
	odd.notsent = 10;
	odd.cong[0] = '\0';
	check("table -i: ecn, fastopen, no wscale nor cc, backoff, retrans, "
	      "busy, ssthresh, reordering, a max pacing rate",
	      printed_info(&table, &est, &odd,
			   "ESTAB            0      0 127.0.0.1:7998              "
			   "127.0.0.1:58848                  0 9\n"
			   "\t ecn ecnseen fastopen rto:204 backoff:2 "
			   "rtt:1500/0.009 ato:40 mss:50176 pmtu:65535 "
			   "rcvmss:34518 advmss:65483 cwnd:11 ssthresh:7 "
			   "bytes_sent:3000 bytes_acked:3000 "
			   "bytes_received:100000 segs_out:3 segs_in:6 "
			   "data_segs_out:1 data_segs_in:3 send 2943659bps "
			   "lastsnd:896 lastrcv:896 lastack:896 "
			   "pacing_rate 8000bps/16000bps "
			   "delivery_rate 100352000000bps delivered:2 "
			   "app_limited busy:3000ms rwnd_limited:1000ms(33.3%) "
			   "sndbuf_limited:500ms(16.7%) retrans:1/4 sacked:3 "
			   "reordering:5 rcv_rtt:0.02 rcv_space:65483 "
			   "rcv_ssthresh:94833 notsent:10 snd_wnd:100352 "
			   "rcv_wnd:95232\n"));
	tw.kind = SOCK_KIND_TIMEWAIT;
	check("table -i: no line for a TIME_WAIT socket",
	      printed_info(&table, &tw, &est_info,
			   "ESTAB            0      0 127.0.0.1:7998              "
			   "127.0.0.1:58848                  0 9\n"));
	check("json -i: a tcp_info object, every value a number",
	      printed_info(&json, &listen, &lin,
			   "{\"family\":\"inet\",\"kind\":\"socket\",\"sl\":0,"
			   "\"local_address\":\"127.0.0.1\",\"local_port\":7998,"
			   "\"remote_address\":\"127.0.0.1\",\"remote_port\":0,"
			   "\"st\":10,\"state\":\"listen\",\"tx_queue\":0,"
			   "\"rx_queue\":0,\"tr\":0,\"tm_when\":0,\"retrnsmt\":0,"
			   "\"uid\":0,\"timeout\":0,\"inode\":9,\"ref\":0,"
			   "\"pointer\":\"0a\",\"rto\":0,\"ato\":0,\"quick\":0,"
			   "\"pingpong\":0,\"cwnd\":0,\"fastopen_max_qlen\":0,"
			   "\"tcp_info\":{\"cong\":\"cubic\",\"options\":[],"
			   "\"rto_us\":0,\"backoff\":0,\"rtt_us\":0,"
			   "\"rttvar_us\":0,\"ato_us\":0,\"mss\":0,\"pmtu\":0,"
			   "\"rcvmss\":0,\"advmss\":0,\"cwnd\":10,\"ssthresh\":0,"
			   "\"bytes_sent\":0,\"bytes_retrans\":0,"
			   "\"bytes_acked\":0,\"bytes_received\":0,"
			   "\"segs_out\":0,\"segs_in\":0,\"data_segs_out\":0,"
			   "\"data_segs_in\":0,\"send_bps\":0,\"lastsnd_ms\":0,"
			   "\"lastrcv_ms\":0,\"lastack_ms\":0,"
			   "\"pacing_rate_bps\":-1,\"max_pacing_rate_bps\":-1,"
			   "\"delivery_rate_bps\":0,\"delivered\":0,"
			   "\"delivered_ce\":0,\"app_limited\":0,\"busy_us\":0,"
			   "\"rwnd_limited_us\":0,\"sndbuf_limited_us\":0,"
			   "\"unacked\":2,\"retrans\":0,\"retrans_total\":0,"
			   "\"lost\":0,\"sacked\":128,\"dsack_dups\":0,"
			   "\"reordering\":3,\"reord_seen\":0,\"rcv_rtt_us\":0,"
			   "\"rcv_space\":0,\"rcv_ssthresh\":0,\"notsent\":0,"
			   "\"minrtt_us\":-1,\"rcv_ooopack\":0,\"snd_wnd\":0,"
			   "\"rcv_wnd\":0}}\n"));
	capture();
	sock_fmt_row(&json, &(struct sockiter_row){ .r = est,
		     .info = est_info }, NULL, NULL, 0);
	out = captured();
	check("json -i: options, window scales, ssthresh -1, rates in bps",
	      strstr(out, "\"tcp_info\":{\"cong\":\"bbr\",\"options\":"
		     "[\"ts\",\"sack\"],\"snd_wscale\":10,\"rcv_wscale\":10,"
		     "\"rto_us\":204000,") &&
	      strstr(out, ",\"ssthresh\":-1,") &&
	      strstr(out, ",\"send_bps\":275968000000,") &&
	      strstr(out, ",\"pacing_rate_bps\":416204775192,"
		     "\"max_pacing_rate_bps\":-1,") &&
	      strstr(out, ",\"minrtt_us\":4,"));
}

static const struct sock_rec pointers_head = { .kind = SOCK_KIND_POINTERS };

/* The walk's rows, as the runner hands them on without -p. */
static int format_row(void *ctx, const struct sockiter_row *w,
		      struct kit_err *e)
{
	(void)e;
	return sock_fmt_row(ctx, w, NULL, NULL, 0);
}

/* A batch of pointers at p, as the program writes it. */
static char *put_pointers(char *p, const char *text)
{
	memcpy(p, &pointers_head, SOCK_REC_TCP_OWN);
	return stpcpy(p + SOCK_REC_TCP_OWN, text);
}

/* -i's records as the program writes them: the info after the
 * addresses of full sockets only; their pointers in a batch after. */
static void test_info_records(void)
{
	struct sockiter it = { .proto = &tcp, .output = SOCK_OUT_TABLE,
			       .config.filter.families = 1 << SOCK_FAMILY_V4 };
	const struct sock_walk_ops ops = { .row = format_row, .ctx = &it };
	static struct sock_walk walk;
	struct kit_err e;
	struct sock_rec full = { .kind = SOCK_KIND_FULL, .inode = 5,
				 .state = SOCK_ST_ESTABLISHED,
				 .src = { 0x0100007F, 0x0100007F } };
	struct sock_rec tw = { .kind = SOCK_KIND_TIMEWAIT, .inode = 6,
			       .state = SOCK_ST_TIME_WAIT };
	char buf[1024], *p = buf;
	const char *out;
	size_t used;

	it.config.want_info = true;
	it.config.want_pointer = true;
	sock_walk_init(&walk, &it, &ops, &e);
	memcpy(p, &full, SOCK_REC_ADDRS + 8);
	p += SOCK_REC_ADDRS + 8;
	memcpy(p, &est_info, sizeof(est_info));
	p += sizeof(est_info);
	memcpy(p, &tw, SOCK_REC_ADDRS + 8);
	p = put_pointers(p + SOCK_REC_ADDRS + 8, "ffee00000000000000000000\n");
	capture();
	used = sock_walk_take(&walk, buf, p - buf);
	out = captured();
	check("records: a full socket's info read after its addresses, "
	      "a TIME_WAIT's record without",
	      used == (size_t)(p - buf) && !walk.waiting &&
	      strstr(out, " 5\n" EST_INFO_LINE "TIME-WAIT ") &&
	      !strchr(strstr(out, "TIME-WAIT "), '\t'));
	check("records: one cut in its info waits for the next read",
	      sock_walk_take(&walk, buf, SOCK_REC_ADDRS + 8 + 100) == 0 &&
	      !walk.waiting);
}

/* five of the filler a batch ends with, as a 64-bit kernel prints it */
#define NULL_PTRS5	"0000000000000000" "0000000000000000" \
			"0000000000000000" "0000000000000000" "0000000000000000"

/* A batch of pointers as wide as a row takes, or one digit more */
static char wide[SOCK_PTR_BATCH * (SOCK_PTR_MAX + 1) + 2];

/* Two batches of a 32-bit kernel's pointers, the second a digit short */
static const char *const batches32[] = {
	"c0ffee01" "00000000" "00000000" "00000000" "00000000" "00000000"
	"00000000" "00000000" "00000000" "00000000" "00000000" "00000000\n",
	"c0ffee01" "00000000" "00000000" "00000000" "00000000" "00000000"
	"00000000" "00000000" "00000000" "00000000" "00000000" "0000000\n",
};

/* Pointers come in batches after their rows: each row gets its own,
 * and none is printed before its batch is whole. */
static void test_pointer_batches(void)
{
	struct sockiter it = { .proto = &tcp, .output = SOCK_OUT_JSON,
			       .config.filter.families = 1 << SOCK_FAMILY_V4 };
	const struct sock_walk_ops ops = { .row = format_row, .ctx = &it };
	static struct sock_walk walk;
	struct kit_err e;
	struct sock_rec a = { .kind = SOCK_KIND_FULL, .inode = 7,
			      .state = SOCK_ST_LISTEN };
	struct sock_rec b = { .kind = SOCK_KIND_FULL, .inode = 8,
			      .state = SOCK_ST_LISTEN };
	char buf[1024], *p = buf, *batch;
	const char *out;
	size_t used;

	it.config.want_pointer = true;
	sock_walk_init(&walk, &it, &ops, &e);
	memcpy(p, &a, SOCK_REC_ADDRS + 8);
	p += SOCK_REC_ADDRS + 8;
	memcpy(p, &b, SOCK_REC_ADDRS + 8);
	batch = p += SOCK_REC_ADDRS + 8;
	p = put_pointers(p, "00000000c0ffee01" "00000000c0ffee02"
			 NULL_PTRS5 NULL_PTRS5 "\n");
	capture();
	used = sock_walk_take(&walk, buf, p - buf - 1);
	check("pointers: rows wait for a batch cut by the end of a read",
	      used == (size_t)(batch - buf) && walk.waiting == 2 &&
	      !*captured());
	capture();
	used = sock_walk_take(&walk, batch, p - batch);
	out = captured();
	check("pointers: each row its own from the batch, the filler left",
	      used == (size_t)(p - batch) && !walk.waiting &&
	      strstr(out, "\"inode\":7,\"ref\":0,"
		     "\"pointer\":\"00000000c0ffee01\"") &&
	      strstr(out, "\"inode\":8,\"ref\":0,"
		     "\"pointer\":\"00000000c0ffee02\"") &&
	      !strstr(out, "\"pointer\":\"0000000000000000\""));

	/* the end's record, then more, of a walk resumed by position */
	p = batch;
	memcpy(p, &(struct sock_rec){ .kind = SOCK_KIND_END },
	       SOCK_REC_TCP_OWN);
	memcpy(p + SOCK_REC_TCP_OWN, &a, SOCK_REC_ADDRS + 8);
	p += SOCK_REC_TCP_OWN + SOCK_REC_ADDRS + 8;
	capture();
	used = sock_walk_take(&walk, batch, p - batch);
	check("pointers: nothing taken after the end's record",
	      used == (size_t)(p - batch) && walk.ended && !walk.waiting &&
	      !*captured());

	/* A batch is split by its length: a 32-bit kernel prints 8 digits
	 * a pointer, and SOCK_PTR_MAX fit a row; a batch not 12 of one
	 * width, or of pointers wider than that, fails the walk. */
	for (int i = 0; i < 4; i++) {
		size_t width = SOCK_PTR_MAX + i - 2;

		memset(wide, '0', SOCK_PTR_BATCH * width);
		strcpy(wide + SOCK_PTR_BATCH * width, "\n");
		sock_walk_init(&walk, &it, &ops, &e);
		memcpy(buf, &a, SOCK_REC_ADDRS + 8);
		p = put_pointers(buf + SOCK_REC_ADDRS + 8,
				 i < 2 ? batches32[i] : wide);
		capture();
		sock_walk_take(&walk, buf, p - buf);
		out = captured();
		if (i == 0)
			check("pointers: a 32-bit kernel's, 8 digits each",
			      !walk.failed && strstr(out, "\"inode\":7,"
				"\"ref\":0,\"pointer\":\"c0ffee01\","));
		else if (i == 2)
			check("pointers: SOCK_PTR_MAX digits each, taken",
			      !walk.failed && strstr(out, "\"inode\":7,"));
		else
			check(i == 1 ? "pointers: not 12 of one width: fails" :
			      "pointers: wider than SOCK_PTR_MAX: fails",
			      walk.failed && !*out &&
			      sock_walk_end(&walk) == -1 &&
			      !strcmp(e.msg, "the iterator's rows lack their "
				      "pointers"));
	}
}

/* UDP's rows, held as the walk brings them, come out in /proc's order:
 * IPv4's, then IPv6's, each by slot (above 65535 too: the sort's second
 * pass), the walk's order kept within a slot. */
static void test_sorted_rows(void)
{
	struct sockiter_proto udp_sorted = udp;
	struct sockiter it = { .proto = &udp_sorted, .output = SOCK_OUT_JSON,
			       .config.filter.families = 3 };
	const struct sock_walk_ops ops = { .row = format_row, .ctx = &it };
	static struct sock_walk walk;
	static const struct { __u8 family; __u32 sl; } walked[] = {
		{ SOCK_FAMILY_V6, 3 }, { SOCK_FAMILY_V4, 300 },
		{ SOCK_FAMILY_V4, 70000 }, { SOCK_FAMILY_V4, 2 },
		{ SOCK_FAMILY_V6, 2 }, { SOCK_FAMILY_V4, 300 },
		{ SOCK_FAMILY_V4, 65536 },
	};
	/* the inodes (walk order + 1) as they must come out */
	static const int want[] = { 4, 2, 6, 7, 3, 5, 1 };
	struct sock_rec r = { .kind = SOCK_KIND_FULL };
	struct kit_err e;
	char buf[1024] = "", *p = buf, pattern[64];
	const char *out, *at;
	bool in_order = true;
	long reads;
	size_t i;

	udp_sorted.sort_by_sl = true;
	it.config.want_pointer = true;
	sock_walk_init(&walk, &it, &ops, &e);
	for (i = 0; i < sizeof(walked) / sizeof(walked[0]); i++) {
		r.family = walked[i].family;
		r.sl = walked[i].sl;
		r.inode = i + 1;
		memcpy(p, &r, SOCK_REC_TCP_OWN);
		p += SOCK_REC_TCP_OWN + SOCK_REC_ADDR_SIZE(r.family);
	}
	/* each row's pointer: its inode in the last digit */
	p = put_pointers(p, "0000000000000001" "0000000000000002"
			 "0000000000000003" "0000000000000004"
			 "0000000000000005" "0000000000000006"
			 "0000000000000007" NULL_PTRS5 "\n");
	capture();
	sock_walk_take(&walk, buf, p - buf);
	in_order = !*captured();	/* nothing before the end */
	capture();
	reads = sock_walk_end(&walk);
	out = captured();
	for (i = 0, at = out; i < sizeof(want) / sizeof(want[0]); i++) {
		snprintf(pattern, sizeof(pattern), "\"inode\":%d,\"ref\":0,"
			 "\"pointer\":\"000000000000000%d\"", want[i], want[i]);
		at = at ? strstr(at, pattern) : NULL;
	}
	check("UDP rows: held with their pointers, then IPv4's and IPv6's "
	      "by slot (its lowest bit too), the walk's order within one",
	      in_order && at && !walk.failed && reads == 0);
}

/* kill's messages name a socket by its -t row, spaces squeezed. */
static void test_row_brief(void)
{
	struct sock_rec r = {
		.family = SOCK_FAMILY_V4, .state = SOCK_ST_TIME_WAIT,
		.src = { htonl(0x7f000001) }, .dst = { htonl(0x7f000001) },
		.sport = 5030, .dport = 50738, .inode = 0,
	};
	char brief[SOCK_BRIEF_MAX];

	sock_row_brief(brief, &r);
	check("a row for a message: one space between columns",
	      !strcmp(brief, "TIME-WAIT 0 0 127.0.0.1:5030 127.0.0.1:50738 0 0"));
}

int main(void)
{
	test_row_brief();
	test_forms();
	test_info();
	test_info_records();
	test_pointer_batches();
	test_sorted_rows();
	test_prefixes();
	test_states();
	test_jiffies();
	test_hz();
	test_rows();
	return unit_status();
}
