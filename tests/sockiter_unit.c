// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of tcpiter's and udpiter's pure helpers: address prefixes,
 * state names, jiffies to clock_t (the code the BPF programs run), HZ
 * from a jiffies sample, and records formatted into /proc's text.
 */
#include "../applets/sockiter.c"
#include "../applets/sockfmt.c"
#include "unit.h"

static int prefix_is(const char *s, int family, const char *net_hex,
		     const char *mask_hex)
{
	__u32 net[4], mask[4];
	char n[33], m[33];
	unsigned char *nb = (void *)net, *mb = (void *)mask;
	int i;

	if (parse_prefix(s, net, mask) != family)
		return 0;
	for (i = 0; i < 16; i++) {
		sprintf(n + 2 * i, "%02x", nb[i]);
		sprintf(m + 2 * i, "%02x", mb[i]);
	}
	return !strcmp(n, net_hex) && !strcmp(m, mask_hex);
}

static void test_prefixes(void)
{
	__u32 net[4], mask[4];

	check("IPv4 address: ::ffff:a.b.c.d/128, family 4",
	      prefix_is("127.0.0.1", 4, "00000000000000000000ffff7f000001",
			"ffffffffffffffffffffffffffffffff"));
	check("IPv4 prefix /8: masked, mask /104",
	      prefix_is("10.1.2.3/8", 4, "00000000000000000000ffff0a000000",
			"ffffffffffffffffffffffffff000000"));
	check("IPv4 /0 still demands an IPv4(-mapped) address",
	      prefix_is("0.0.0.0/0", 4, "00000000000000000000ffff00000000",
			"ffffffffffffffffffffffff00000000"));
	check("IPv6 prefix /10, family 6",
	      prefix_is("fe80::1/10", 6, "fe800000000000000000000000000000",
			"ffc00000000000000000000000000000"));
	check("IPv6 ::1",
	      prefix_is("::1", 6, "00000000000000000000000000000001",
			"ffffffffffffffffffffffffffffffff"));
	check("IPv6 /0 matches any IPv6 address",
	      prefix_is("::/0", 6, "00000000000000000000000000000000",
			"00000000000000000000000000000000"));
	check("refused: /33 on IPv4, /129 on IPv6, empty or signed length, "
	      "junk",
	      parse_prefix("10.0.0.0/33", net, mask) < 0 &&
	      parse_prefix("::/129", net, mask) < 0 &&
	      parse_prefix("10.0.0.0/", net, mask) < 0 &&
	      parse_prefix("10.0.0.0/-1", net, mask) < 0 &&
	      parse_prefix("10.0.0.0/0x8", net, mask) < 0 &&
	      parse_prefix("example.com", net, mask) < 0 &&
	      parse_prefix("", net, mask) < 0);
}

static void test_states(void)
{
	__u32 states = 0;

	check("states by ss's names",
	      !parse_state("established", &states) &&
	      !parse_state("listen", &states) &&
	      !parse_state("time-wait", &states) &&
	      states == (1U << 1 | 1U << 10 | 1U << 6));
	states = 0;
	check("ss's spellings listening and closed",
	      !parse_state("listening", &states) &&
	      !parse_state("closed", &states) &&
	      states == (1U << 10 | 1U << 7));
	states = 0;
	check("connected: all but listen and close",
	      !parse_state("connected", &states) && states == 0xffeU - 0x480);
	states = 0;
	check("all: states 1 to 11",
	      !parse_state("all", &states) && states == 0xffe);
	check("unknown states refused",
	      parse_state("estab", &states) && parse_state("", &states) &&
	      parse_state("new-syn-recv", &states));
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
	      hz_from_jiffies(4295816875ULL, 3698456843601ULL) == 250);
	check("HZ 1000 from a sample of a HZ=1000 kernel",
	      hz_from_jiffies(4294667296ULL + 3600000ULL + 3,
			      3600000000000ULL) == 1000);
	check("HZ 100 soon after boot",
	      hz_from_jiffies(4294937296ULL + 1000, 10000000000ULL) == 100);
	check("no answer at 5 minutes of uptime, when all HZ agree",
	      hz_from_jiffies(4294967296ULL, 300000000000ULL) == 0);
	check("no answer for nonsense", hz_from_jiffies(12345, 1) == 0);
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
	char buf[ROW_MAX], *end;
	size_t len;

	end = format_proc_row(buf, proto, r, ptr, strlen(ptr));
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

void sockiter_read_owners(bool verbose)
{
	(void)verbose;
}

const struct sock_owner_rec *sockiter_owners_of(__u64 inode, size_t *n)
{
	*n = inode == 4711 ? 2 : 0;
	return fake_owners;
}

/* The row sockiter_print_row() buffers is want. */
static int printed(const struct sockiter *it, const struct sock_rec *r,
		   const char *netns, const char *want)
{
	struct sockiter_row w = { .r = *r, .ptr = "0a", .ptr_len = 2 };

	out_len = 0;
	sockiter_print_row(it, &w, netns);
	out[out_len] = '\0';
	if (strcmp(out, want))
		return printf("    got  \"%s\"\n    want \"%s\"\n", out, want), 0;
	return 1;
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

int main(void)
{
	test_forms();
	test_prefixes();
	test_states();
	test_jiffies();
	test_hz();
	test_rows();
	return unit_status();
}
