// SPDX-License-Identifier: GPL-2.0
/*
 * rdjob: the RAM-disk engine's public face (rd.h): the volumes of a job
 * read as one image, identified, and loaded into its target.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/sendfile.h>
#include <unistd.h>

#include "rd/rdimage.h"

struct rd_state {
	struct load ld;
	struct volumes v;
	struct target t;
};

static void job_say(struct load *ld, const char *line)
{
	struct rd_job *job = ((struct volumes *)ld->in_ctx)->job;

	job->say(line);
}

static void job_progress(struct load *ld)
{
	struct rd_job *job = ((struct volumes *)ld->in_ctx)->job;

	job->progress(job, ld->queued);
}

/* The engine's error, as the job's. */
static int job_fail(struct rd_job *job, const struct load *ld)
{
	job->err = ld->err;
	return -1;
}

/* The volumes checked, the buffers, and the image found. */
static int find(struct rd_job *job, struct rd_state *s, const char *target)
{
	struct load *ld = &s->ld;

	s->v.job = job;
	s->v.fd = -1;
	s->v.target_path = target;
	s->t.fd = -1;
	ld->start = job->start;
	ld->say = job->say ? job_say : NULL;
	ld->verify = job->verify;
	if (rd_volumes_check(ld, &s->v) || rd_alloc(ld) || rd_find(ld))
		return -1;
	job->fs = ld->id.fs;
	return 0;
}

static void finish(struct rd_state *s)
{
	rd_free(&s->ld);
	rd_volumes_free(&s->v);
	rd_target_close(&s->t);
}

int rd_identify(struct rd_job *job)
{
	struct rd_state s = { 0 };
	int ret = 0;

	/* No target: -i writes nothing. */
	if (find(job, &s, NULL) || rd_report_size(&s.ld))
		ret = job_fail(job, &s.ld);
	job->fs = s.ld.id.fs;	/* the one inside, when seen */
	finish(&s);
	return ret;
}

/* sendfile() from the volume being read to the target; 0 at its end. */
static ssize_t volumes_splice(struct load *ld, size_t len)
{
	struct volumes *v = ld->in_ctx;
	struct target *t = ld->out_ctx;
	ssize_t n;

	if (v->fd < 0)
		return 0;
	do
		n = sendfile(t->fd, v->fd, NULL, len);
	while (n < 0 && errno == EINTR);
	if (n < 0 && (errno == EINVAL || errno == ENOSYS)) {
		ld->splice = NULL;	/* not between these two: read() */
		return 0;
	}
	if (n < 0)
		return rd_fail(ld, "RAMDISK: error copying %s to %s: %s",
			       v->job->volumes[v->opened - 1], t->path,
			       strerror(errno));
	ld->written += n;
	return n;
}

/* The target opened, and how it is written. */
static int open_target(struct rd_job *job, struct rd_state *s)
{
	struct load *ld = &s->ld;
	struct stat st;

	s->t.path = job->target;
	if (rd_target_open(ld, &s->t, job->allow_file))
		return -1;
	if (ld->id.format) {
		if (rd_target_thread(ld, &s->t))
			return -1;
	} else if (!job->verify) {	/* --verify sums what goes through memory */
		ld->splice = volumes_splice;
	}
	if (fstat(s->t.fd, &st))
		return rd_fail(ld, "cannot stat %s: %s", s->t.path,
			       strerror(errno));
	return rd_volumes_target(ld, &s->v, &st);
}

/* A failed load: the target as it was where it can be, and the count. */
static int load_failed(struct rd_job *job, struct rd_state *s)
{
	char reset[PATH_MAX + 128] = "";

	if (rd_target_unsize(&s->t))
		snprintf(reset, sizeof(reset), "; cannot reset %s to no "
			 "disksize: %s", s->t.path, strerror(errno));
	else if (rd_target_remove_new(&s->t))
		snprintf(reset, sizeof(reset), ", which it created: removed");
	/* The count always fits: the error gives way. */
	return kit_fail(&job->err, EXIT_RUNTIME, 0, "%.*s; %llu bytes written "
			"to %s%s", (int)sizeof(job->err.msg) / 4, s->ld.err.msg,
			(unsigned long long)s->ld.written, s->t.path, reset);
}

int rd_load(struct rd_job *job)
{
	struct rd_state s = { 0 };
	int ret = 0;

	if (find(job, &s, job->target) || open_target(job, &s)) {
		rd_target_remove_new(&s.t);
		ret = job_fail(job, &s.ld);
		goto out;
	}
	s.ld.progress = job->progress ? job_progress : NULL;
	if (rd_load_image(&s.ld) || rd_target_finish(&s.ld, &s.t) ||
	    rd_volumes_finish(&s.ld, &s.v)) {
		ret = load_failed(job, &s);
		goto out;
	}
	rd_say_done(&s.ld, s.v.opened);
out:
	finish(&s);
	return ret;
}
