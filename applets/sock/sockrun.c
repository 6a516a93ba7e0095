// SPDX-License-Identifier: GPL-2.0
/*
 * tcpiter's and udpiter's runner: what the command line asked, done with
 * the socket engine's layers (sockload, socknetns, sockwalk, sockfmt,
 * sockowner, sockkill), whose errors end here.  A walk hands each row to
 * print_row(), which closes its socket (kill), looks up its owners (-p)
 * and formats it.
 */
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio_ext.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <bpf/libbpf.h>

#include "core/kit.h"
#include "sock/sockfmt.h"
#include "sock/sockkill.h"
#include "sock/socknetns.h"
#include "sock/sockowner.h"
#include "sock/sockrun.h"
#include "sock/sockwalk.h"

static int print_libbpf(enum libbpf_print_level level, const char *fmt,
			va_list ap)
{
	(void)level;
	return vfprintf(stderr, fmt, ap);
}

void sockiter_parse(struct sockiter *it, const struct sockiter_proto *proto,
		    int argc, char **argv)
{
	struct kit_err e;

	if (sock_opt_parse(it, proto, argc, argv, &e))
		die_err(&e);
	libbpf_set_print(it->verbose ? print_libbpf : NULL);
}

/* What every load needs first. */
static void prepare(struct sockiter *it)
{
	struct kit_err e;
	bool hz_guessed;

	if (sock_prepare(it, &hz_guessed, &e))
		die_err(&e);
	if (hz_guessed && it->verbose)
		warn_msg("cannot tell the kernel's HZ; assuming %d (Debian's): "
			 "timers may be off", SOCK_FALLBACK_HZ);
}

/* Returns the iterator's link. */
static int load(const struct sockiter *it, const struct sockiter_loader *loader,
		struct sockiter_prog *prog)
{
	struct kit_err e;
	int link = sock_load(it, loader, prog, &e);

	if (link < 0)
		die_err(&e);
	return link;
}

static void read_owners(const struct sockiter *it)
{
	struct kit_err e;

	if (it->owners && sock_read_owners(it->verbose, &e))
		die_err(&e);
}

static void enter_named_netns(const struct sockiter *it)
{
	struct kit_err e;

	if (it->netns && sock_enter_named_netns(it->netns, &e))
		die_err(&e);
}

/*
 * kill goes on when its output fails (a full disk, a closed pipe): the
 * sockets chosen are closed whatever becomes of their list, and
 * kill_summary() says so on stderr.  Anything else stops.
 */
static void flush_out(const struct sockiter *it)
{
	if (sock_fmt_flush() && !it->kill)
		die_errno("write error");
}

/* The context of a walk's callbacks. */
struct dump {
	const struct sockiter *it;
	const char *netns;		/* --all-netns: the JSON field */
	bool v6_header;			/* /proc's IPv6 header after IPv4 */
};

/* kill: w's socket closed, or why not said: 1 to list it, 0 not, -1. */
static int kill_row(const struct sockiter *it, const struct sockiter_row *w,
		    struct kit_err *e)
{
	char row[SOCK_BRIEF_MAX];
	const char *reason;
	int res = sock_kill_row(it, w, &reason, e);

	if (res < 0)
		return -1;
	if (res == SOCK_KILL_CLOSED)
		return 1;
	sock_row_brief(row, &w->r);
	if (res == SOCK_KILL_REFUSED)
		warn_msg("not closed: %s: %s", row, reason);
	else if (it->verbose)
		warn_msg("gone before kill came to it: %s", row);
	return 0;
}

static int print_row(void *ctx, const struct sockiter_row *w,
		     struct kit_err *e)
{
	const struct dump *dump = ctx;
	const struct sockiter *it = dump->it;
	const struct sock_owner_rec *owners = NULL;
	size_t n_owners = 0;
	int list;

	if (it->kill) {
		list = kill_row(it, w, e);
		if (list <= 0)
			return list;
	}
	if (it->owners)
		owners = sock_owners_of(w->r.inode, &n_owners);
	if (sock_fmt_row(it, w, dump->netns, owners, n_owners) && !it->kill)
		return kit_fail(e, EXIT_RUNTIME, errno, "write error");
	return 0;
}

static int print_v6_header(void *ctx, struct kit_err *e)
{
	const struct dump *dump = ctx;

	(void)e;
	if (dump->v6_header)
		sock_fmt_proc_header(dump->it, SOCK_FAMILY_V6);
	return 0;
}

/* One walk of the current network namespace, printed (headers: the
 * table's first); returns the read()s that brought rows. */
static long dump(const struct sockiter *it, int link,
		 const struct sockiter_prog *prog, const char *netns,
		 bool headers)
{
	__u32 families = it->config.filter.families;
	int first = families & (1 << SOCK_FAMILY_V4) ? SOCK_FAMILY_V4 :
						       SOCK_FAMILY_V6;
	bool proc_headers = it->output == SOCK_OUT_PROC && !it->no_header;
	struct dump dump = {
		.it = it, .netns = netns,
		.v6_header = proc_headers && first == SOCK_FAMILY_V4 &&
			     families & (1 << SOCK_FAMILY_V6),
	};
	const struct sock_walk_ops ops = {
		.row = print_row, .v4_done = print_v6_header, .ctx = &dump,
	};
	struct kit_err e;
	long reads;

	flush_out(it);
	if (it->output == SOCK_OUT_COUNT)
		memset(prog->counts, 0, sizeof(prog->counts[0]) * 2);
	if (it->output == SOCK_OUT_TABLE && !it->no_header && headers)
		sock_fmt_table_header(it);
	if (proc_headers)
		sock_fmt_proc_header(it, first);
	reads = sock_walk(it, link, &ops, &e);
	if (reads < 0)
		die_err(&e);
	if (it->output == SOCK_OUT_COUNT)
		sock_fmt_counts(it, prog->counts);
	flush_out(it);
	return reads;
}

/*
 * "# netns LABEL" on a line of its own: a control character in a
 * namespace's name (a newline, from a file in /run/netns) would split it,
 * so it and the backslash show as \ooo, as ls -b shows them.
 */
static void put_netns_line(const char *label)
{
	fputs("# netns ", stdout);
	for (; *label; label++) {
		unsigned char c = *label;

		if (c < 0x20 || c == 0x7f || c == '\\')
			printf("\\%03o", c);
		else
			putchar(c);
	}
	putchar('\n');
}

static void dump_all_netns(const struct sockiter *it, int link,
			   const struct sockiter_prog *prog)
{
	struct sock_netns_list l = { 0 };
	struct kit_err e;
	const char *why;
	size_t i;
	int gone;

	if (sock_list_netns(&l, &e))
		die_err(&e);
	for (i = 0; i < l.n; i++) {
		gone = sock_enter_listed_netns(&l.ns[i], &why, &e);
		if (gone < 0)
			die_err(&e);
		if (gone) {
			if (it->verbose)
				warn_msg("skipping %s: %s", l.ns[i].path, why);
			continue;
		}
		if (it->output != SOCK_OUT_JSON)
			put_netns_line(l.ns[i].label);
		dump(it, link, prog, l.ns[i].label, true);
	}
	free(l.ns);
}

/*
 * A walk that closes sockets may skip some: on kernels that resume each
 * read() at a count of the sockets of the hash bucket it stopped in
 * (bpf/kernel_types.h: 6.5 to 6.17 or so), the count no longer holds once
 * sockets before were closed.  There a walk that closed sockets over
 * more than one read() is followed by another, which closes what was
 * skipped; the program passes over the sockets this run closed already.
 * A few passes at most: sockets that keep coming are for another run.
 */
#define KILL_PASSES	4

/* Set and not empty: kill closes through inet_diag where the kernel has
 * bpf_sock_destroy() too, so that the tests cover that path there. */
#define KILL_INET_DIAG	"KIT_KILL_INET_DIAG"

/* The count that ends kill's output, on stderr when the output failed;
 * returns the exit status (1: some not closed, or unlisted, closed by the
 * program with no row to show, or the list not written). */
static int kill_summary(const struct sockiter *it, __u64 unlisted)
{
	const struct sock_kill_stats *stats = sock_kill_stats();
	size_t closed = stats->closed + unlisted;
	char line[160];
	int n, lost;

	n = snprintf(line, sizeof(line), "%s %zu socket%s",
		     it->dry_run ? "would close" : "closed", closed,
		     closed == 1 ? "" : "s");
	if (stats->refused)
		n += snprintf(line + n, sizeof(line) - n, ", %zu not closed",
			      stats->refused);
	if (stats->gone)
		snprintf(line + n, sizeof(line) - n,
			 ", %zu gone before kill came to them", stats->gone);
	lost = sock_fmt_flush();
	if (!lost && (puts(line) < 0 || sock_fmt_flush()))
		lost = -1;
	if (lost) {
		warn_msg("%s; their list was not written: write error: %s",
			 line, strerror(errno));
		/* Said here, whole: nothing left for exit's stdout check. */
		__fpurge(stdout);
		clearerr(stdout);
	}
	if (unlisted)
		warn_msg("%llu of the sockets closed are not listed: their "
			 "rows did not fit the reads", (unsigned long long)unlisted);
	return stats->refused || unlisted || lost ? 1 : 0;
}

/* The walks that close: until none skipped any (KILL_PASSES). */
static void kill_walks(const struct sockiter *it, int link,
		       const struct sockiter_prog *prog, bool by_kfunc)
{
	size_t closed;
	long reads;
	int pass;

	prog->kill_state->run = (__u64)getpid() << 32 | (__u32)time(NULL);
	for (pass = 0; pass < KILL_PASSES; pass++) {
		closed = sock_kill_stats()->closed;
		reads = dump(it, link, prog, NULL, pass == 0);
		if (it->verbose)
			warn_msg("walk %d: %zu closed, %ld reads", pass + 1,
				 sock_kill_stats()->closed - closed, reads);
		if (!by_kfunc || prog->kill_state->exact_resume || reads <= 1 ||
		    sock_kill_stats()->closed == closed)
			break;
	}
}

static int kill_sockets(struct sockiter *it,
			const struct sockiter_loader *loader,
			const struct sockiter_loader *kill_loader)
{
	const char *env = getenv(KILL_INET_DIAG);
	bool force_inet_diag = env && *env;
	bool by_kfunc = false;
	struct sockiter_prog prog;
	struct kit_err e;
	int link;

	/* A closed pipe fails a write (flush_out()), and ends no kill. */
	signal(SIGPIPE, SIG_IGN);
	prepare(it);
	if (!it->dry_run && !force_inet_diag)
		by_kfunc = !sock_load_prog(it, kill_loader, &prog);
	if (it->verbose && !it->dry_run)
		warn_msg("closing %s", by_kfunc ? "with bpf_sock_destroy()" :
			 force_inet_diag ? "through inet_diag (" KILL_INET_DIAG ")" :
			 "through inet_diag (no bpf_sock_destroy())");
	link = by_kfunc ? sock_attach(it, &prog, &e) : load(it, loader, &prog);
	if (link < 0)
		die_err(&e);
	read_owners(it);
	enter_named_netns(it);
	if (!it->dry_run && !by_kfunc && sock_kill_check(it->proto, &e))
		die_err(&e);
	kill_walks(it, link, &prog, by_kfunc);
	close(link);
	return kill_summary(it, prog.kill_state->unlisted);
}

int sockiter_run(struct sockiter *it, const struct sockiter_loader *loader,
		 const struct sockiter_loader *kill_loader)
{
	struct sockiter_prog prog;
	struct kit_err e;
	int link;

	if (it->kill)
		return kill_sockets(it, loader, kill_loader);
	prepare(it);
	link = load(it, loader, &prog);
	read_owners(it);
	if (it->pin_path) {
		if (sock_pin(it, link, &e))
			die_err(&e);
	} else if (it->all_netns) {
		dump_all_netns(it, link, &prog);
	} else {
		enter_named_netns(it);
		dump(it, link, &prog, NULL, true);
	}
	close(link);
	return 0;
}
