// SPDX-License-Identifier: GPL-2.0
/*
 * ledstagefile: the boot-status LED's file read over the defaults
 * (ledstage.c parses it), and each stage's look checked as mcled set
 * checks its words (ledrequest.c).  A wrong file or look is the file's
 * fault, named with its place: "FILE:LINE: ...", EXIT_RUNTIME.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "led/ledstage.h"

/* A look's words as set's, in look, checked as set checks them: their
 * count, or -1 with *e. */
static int look_request(char *look, char **argv, struct request *req,
			struct kit_err *e)
{
	char text[LEDTEXT_PATTERN_SIZE];
	int n = led_stage_look_args(look, argv, LEDSTAGE_LINE / 2);

	memset(req, 0, sizeof(*req));
	if (n < 0)
		return kit_fail(e, EXIT_RUNTIME, 0, "give a look as COLOR "
				"ACTION [ARGUMENTS], e.g. '#00ff00 steady'");
	if (led_parse_request(req, NULL, NULL, n, argv, e))
		return -1;
	if (!req->action)
		return kit_fail(e, EXIT_RUNTIME, 0, "no action: steady, blink, "
				"pattern or heartbeat");
	/* The pattern's form; its levels against the LED's maximum at
	 * boot. */
	if (req->action == ACT_PATTERN &&
	    led_text_pattern(req->pattern, LEDTEXT_MAX_LEVEL, text,
			    sizeof(text), e))
		return -1;
	return n;
}

int led_stage_request(const struct led_stage_conf *conf, int stage,
		      const char *path, char *copy, char **argv,
		      struct request *req, struct kit_err *e)
{
	struct kit_err bad;
	int n;

	strcpy(copy, conf->look[stage]);
	n = look_request(copy, argv, req, &bad);
	if (n < 0)
		return kit_fail(e, EXIT_RUNTIME, 0, "%s:%d: %s=%s: %s", path,
				conf->look_line[stage], led_stage_name(stage),
				conf->look[stage], bad.msg);
	return n;
}

/* The file at path over *conf, its keys and led= checked, each error
 * with its line; a missing file leaves *conf. */
static int read_file(struct led_stage_conf *conf, const char *path,
		     struct kit_err *e)
{
	char text[LEDSTAGE_COUNT * LEDSTAGE_LINE * 4];
	struct kit_err bad;
	struct stat st;
	ssize_t len;
	int fd, line;

	fd = open_noblock(path);
	if (fd < 0 && errno == ENOENT)
		return 0;
	if (fd < 0)
		return kit_fail(e, EXIT_RUNTIME, errno, "cannot read %s", path);
	if (regular_file(fd, path, "give the LED's configuration, a text "
			 "file", &st, e))
		goto fail;
	/* By its size: a read cut at the buffer's end, then its newline
	 * stripped, looked whole. */
	if ((unsigned long long)st.st_size >= sizeof(text)) {
		kit_fail(e, EXIT_RUNTIME, 0, "%s is longer than %zu bytes; is "
			 "it the LED's configuration?", path, sizeof(text) - 1);
		goto fail;
	}
	len = read_fd_text(fd, text, sizeof(text));
	if (len < 0) {
		kit_fail(e, EXIT_RUNTIME, errno, "cannot read %s", path);
		goto fail;
	}
	close(fd);
	if (led_stage_parse(conf, text, len, &line, &bad))
		return kit_fail(e, EXIT_RUNTIME, 0, "%s:%d: %s", path, line,
				bad.msg);
	if (strchr(conf->led, '/'))
		return kit_fail(e, EXIT_RUNTIME, 0, "%s:%d: led=%s: "
				LED_NOT_A_PATH, path, conf->led_line,
				conf->led);
	return 0;
fail:
	close(fd);
	return -1;
}

int led_stage_read(struct led_stage_conf *conf, const char *path,
		   enum action action[LEDSTAGE_COUNT], struct kit_err *e)
{
	char copy[LEDSTAGE_LINE], *argv[LEDSTAGE_LINE / 2];
	struct request req;
	int i;

	led_stage_defaults(conf);
	if (read_file(conf, path, e))
		return -1;
	for (i = 0; i < LEDSTAGE_COUNT; i++) {
		if (led_stage_request(conf, i, path, copy, argv, &req, e) < 0)
			return -1;
		action[i] = req.action;
	}
	return 0;
}

int led_stage_add_triggers(struct led_stage_conf *conf,
			   const enum action action[LEDSTAGE_COUNT],
			   struct kit_err *e)
{
	char module[TRIG_NAME + sizeof(TRIG_MODULE)];
	int i;

	for (i = 0; i < LEDSTAGE_COUNT; i++) {
		if (!strcmp(led_actions[action[i]].trigger, "none"))
			continue;
		snprintf(module, sizeof(module), TRIG_MODULE,
			 led_actions[action[i]].trigger);
		if (led_stage_add_module(conf, module))
			return kit_fail(e, EXIT_RUNTIME, 0, "modules= leaves no "
					"room for %s", module);
	}
	return 0;
}
