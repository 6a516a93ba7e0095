// SPDX-License-Identifier: GPL-2.0
/*
 * tcpiter's and udpiter's runner: what the command line asked, done with
 * the socket engine's layers (sockload, socknetns, sockwalk, sockfmt,
 * sockowner, sockkill), whose errors end here.  A walk hands each row to
 * print_row(), which closes its socket (kill), looks up its owners (-p)
 * and formats it.
 */
#define _GNU_SOURCE
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
#include "sock/sock.h"
#include "sock/sockwalk.h"

/* -v: libbpf's lines, each to the applet's note hook (a verifier's log
 * comes in one message of many lines, whole). */
static void (*libbpf_note)(const char *line);

static int print_libbpf(enum libbpf_print_level level, const char *fmt,
			va_list ap)
{
	char *text, *line, *next;
	int n = vasprintf(&text, fmt, ap);

	(void)level;
	if (n < 0)
		return n;
	for (line = text; *line; line = next) {
		next = line + strcspn(line, "\n");
		if (*next)
			*next++ = '\0';
		libbpf_note(line);
	}
	free(text);
	return n;
}

/* What every load needs first. */
static int prepare(struct sockiter *it, struct kit_err *e)
{
	bool hz_guessed;

	libbpf_note = it->note;
	libbpf_set_print(it->verbose && it->note ? print_libbpf : NULL);
	if (sock_prepare(it, &hz_guessed, e))
		return -1;
	if (hz_guessed && it->verbose)
		kit_note(it->note, "cannot tell the kernel's HZ; assuming %d "
			 "(Debian's): timers may be off", SOCK_FALLBACK_HZ);
	return 0;
}

/* The owners (-p) read, and -N's namespace entered. */
static int read_owners(const struct sockiter *it, struct kit_err *e)
{
	return it->owners ? sock_read_owners(it->verbose, e) : 0;
}

static int enter_named_netns(const struct sockiter *it, struct kit_err *e)
{
	return it->netns ? sock_enter_named_netns(it->netns, e) : 0;
}

/*
 * kill goes on when its output fails (a full disk, a closed pipe): the
 * sockets chosen are closed whatever becomes of their list, and
 * kill_summary() says so on stderr.  Anything else stops.
 */
static int flush_out(const struct sockiter *it, struct kit_err *e)
{
	if (sock_fmt_flush() && !it->kill)
		return kit_fail(e, EXIT_RUNTIME, errno, "write error");
	return 0;
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
		kit_note(it->note, "not closed: %s: %s", row, reason);
	else if (it->verbose)
		kit_note(it->note, "gone before kill came to it: %s", row);
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
 * table's first); returns the read()s that brought rows, or -1. */
static long dump(const struct sockiter *it, int link,
		 const struct sockiter_prog *prog, const char *netns,
		 bool headers, struct kit_err *e)
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
	long reads;

	if (flush_out(it, e))
		return -1;
	if (it->output == SOCK_OUT_COUNT)
		memset(prog->counts, 0, sizeof(prog->counts[0]) * 2);
	if (it->output == SOCK_OUT_TABLE && !it->no_header && headers)
		sock_fmt_table_header(it);
	if (proc_headers)
		sock_fmt_proc_header(it, first);
	reads = sock_walk(it, link, &ops, e);
	if (reads < 0)
		return -1;
	if (it->output == SOCK_OUT_COUNT)
		sock_fmt_counts(it, prog->counts);
	return flush_out(it, e) ? -1 : reads;
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

static int dump_all_netns(const struct sockiter *it, int link,
			  const struct sockiter_prog *prog, struct kit_err *e)
{
	struct sock_netns_list l = { 0 };
	const char *why;
	int gone = 0;
	size_t i;

	if (sock_list_netns(&l, e))
		return -1;
	for (i = 0; i < l.n && gone >= 0; i++) {
		gone = sock_enter_listed_netns(&l.ns[i], &why, e);
		if (gone > 0 && it->verbose)
			kit_note(it->note, "skipping %s: %s", l.ns[i].path,
				 why);
		if (gone)
			continue;
		if (it->output != SOCK_OUT_JSON)
			put_netns_line(l.ns[i].label);
		if (dump(it, link, prog, l.ns[i].label, true, e) < 0)
			gone = -1;
	}
	free(l.ns);
	return gone < 0 ? -1 : 0;
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
		kit_note(it->note, "%s; their list was not written: write "
			 "error: %s", line, strerror(errno));
		/* Said here, whole: nothing left for exit's stdout check. */
		__fpurge(stdout);
		clearerr(stdout);
	}
	if (unlisted)
		kit_note(it->note, "%llu of the sockets closed are not listed: "
			 "their rows did not fit the reads",
			 (unsigned long long)unlisted);
	return stats->refused || unlisted || lost ? 1 : 0;
}

/* The walks that close: until none skipped any (KILL_PASSES). */
static int kill_walks(const struct sockiter *it, int link,
		      const struct sockiter_prog *prog, bool by_kfunc,
		      struct kit_err *e)
{
	size_t closed;
	long reads;
	int pass;

	prog->kill_state->run = (__u64)getpid() << 32 | (__u32)time(NULL);
	for (pass = 0; pass < KILL_PASSES; pass++) {
		closed = sock_kill_stats()->closed;
		reads = dump(it, link, prog, NULL, pass == 0, e);
		if (reads < 0)
			return -1;
		if (it->verbose)
			kit_note(it->note, "walk %d: %zu closed, %ld reads",
				 pass + 1, sock_kill_stats()->closed - closed,
				 reads);
		if (it->verbose && prog->kill_state->unmarked)
			kit_note(it->note, "%llu sockets left to "
				 "inet_diag: the kernel gave no mark "
				 "(bpf_sk_storage_get())",
				 (unsigned long long)prog->kill_state->unmarked);
		/* A later walk would close again what has no mark. */
		if (!by_kfunc || prog->kill_state->exact_resume || reads <= 1 ||
		    sock_kill_stats()->closed == closed ||
		    prog->kill_state->unmarked)
			break;
	}
	return 0;
}

/* Why kill closes through inet_diag, for -v. */
static const char *inet_diag_why(bool forced)
{
	if (forced)
		return KILL_INET_DIAG;
	if (sock_jit_off() && sock_kernel_has_func("bpf_sock_destroy"))
		return "bpf_sock_destroy() needs the BPF JIT, which is off: "
		       SOCK_JIT_ON;
	return "no bpf_sock_destroy()";
}

/* loader: the walk's program where the protocol's kill program is not
 * taken (no bpf_sock_destroy(), -n). */
static int kill_sockets(struct sockiter *it,
			const struct sockiter_loader *loader, struct kit_err *e)
{
	const char *env = getenv(KILL_INET_DIAG);
	bool force_inet_diag = env && *env;
	bool by_kfunc = false;
	struct sockiter_prog prog;
	int link, ret;

	/* A closed pipe fails a write (flush_out()), and ends no kill. */
	signal(SIGPIPE, SIG_IGN);
	if (prepare(it, e))
		return -1;
	if (!it->dry_run && !force_inet_diag)
		by_kfunc = !sock_load_prog(it, it->proto->kill_loader, &prog);
	if (it->verbose && !it->dry_run) {
		if (by_kfunc)
			kit_note(it->note, "closing with bpf_sock_destroy()");
		else
			kit_note(it->note, "closing through inet_diag (%s)",
				 inet_diag_why(force_inet_diag));
	}
	link = by_kfunc ? sock_attach(it, &prog, e) :
			  sock_load(it, loader, &prog, e);
	if (link < 0)
		return -1;
	ret = read_owners(it, e) || enter_named_netns(it, e) ||
	      (!it->dry_run && !by_kfunc && sock_kill_check(it->proto, e)) ||
	      kill_walks(it, link, &prog, by_kfunc, e) ? -1 : 0;
	close(link);
	return ret ? ret : kill_summary(it, prog.kill_state->unlisted);
}

/* Neither pin nor -i: the lean program, where the protocol has one. */
static const struct sockiter_loader *loader_of(const struct sockiter *it)
{
	const struct sockiter_proto *proto = it->proto;

	return proto->lean_loader && !it->config.want_info &&
	       it->config.mode != SOCK_MODE_TEXT ? proto->lean_loader :
						   proto->loader;
}

static int run(struct sockiter *it, struct kit_err *e)
{
	const struct sockiter_loader *loader = loader_of(it);
	struct sockiter_prog prog;
	int link, ret;

	if (it->kill)
		return kill_sockets(it, loader, e);
	if (prepare(it, e))
		return -1;
	link = sock_load(it, loader, &prog, e);
	if (link < 0)
		return -1;
	if (read_owners(it, e))
		ret = -1;
	else if (it->pin_path)
		ret = sock_pin(it, link, e);
	else if (it->all_netns)
		ret = dump_all_netns(it, link, &prog, e);
	else
		ret = enter_named_netns(it, e) ||
		      dump(it, link, &prog, NULL, true, e) < 0 ? -1 : 0;
	close(link);
	return ret;
}

int sock_main(const struct sockiter_proto *proto, int argc, char **argv,
	      void (*note)(const char *line), struct kit_err *e)
{
	struct sockiter it;
	int ret = sock_opt_parse(&it, proto, argc, argv, e);

	if (ret)
		return ret;
	it.note = note;
	return run(&it, e);
}
