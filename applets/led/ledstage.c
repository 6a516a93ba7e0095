// SPDX-License-Identifier: GPL-2.0
/*
 * ledstage: the boot-status LED's configuration (ledstage.h).
 */
#include <stdio.h>
#include <string.h>

#include "core/kit.h"
#include "led/ledstage.h"

#define LEDSTAGE_OFF	"off"
#define CMDLINE_KEY	"kit.led"

/* The message for an unknown key names the four stages. */
_Static_assert(LEDSTAGE_COUNT == 4, "a stage the key message misses");

/*
 * Each stage's name and default look: a blue pulse while the initramfs
 * runs, amber while it waits for the root device, steady green once the
 * root is handed over, a fast red blink in the rescue shell.
 */
static const struct {
	const char *name, *look;
} stages[LEDSTAGE_COUNT] = {
	[LEDSTAGE_STARTED] = { "started", "#0000ff pattern 0% 500 100% 500" },
	[LEDSTAGE_WAITING] = { "waiting", "#ffbf00 steady" },
	[LEDSTAGE_MOUNTED] = { "mounted", "#00ff00 steady" },
	[LEDSTAGE_FAILED] = { "failed",
			      "#ff0000 pattern 100% 100 100% 0 0% 100 0% 0" },
};

#define BLANKS		" \t"

void led_stage_defaults(struct led_stage_conf *conf)
{
	int i;

	memset(conf, 0, sizeof(*conf));
	for (i = 0; i < LEDSTAGE_COUNT; i++)
		snprintf(conf->look[i], sizeof(conf->look[i]), "%s",
			 stages[i].look);
}

int led_stage_find(const char *name)
{
	int i;

	for (i = 0; i < LEDSTAGE_COUNT; i++)
		if (!strcmp(name, stages[i].name))
			return i;
	return -1;
}

const char *led_stage_name(enum led_stage_id stage)
{
	return stages[stage].name;
}

/* s without the BLANKS around it, in place. */
static char *trim(char *s)
{
	size_t len;

	s += strspn(s, BLANKS);
	len = strlen(s);
	while (len && strchr(BLANKS, s[len - 1]))
		s[--len] = '\0';
	return s;
}

/* The value's place in *conf for key, or NULL; *line, where its line
 * number goes (NULL: modules=, which mcled does not check). */
static char *slot(struct led_stage_conf *conf, const char *key, int **line)
{
	int stage = led_stage_find(key);

	*line = NULL;
	if (stage >= 0) {
		*line = &conf->look_line[stage];
		return conf->look[stage];
	}
	if (!strcmp(key, "led")) {
		*line = &conf->led_line;
		return conf->led;
	}
	if (!strcmp(key, "modules"))
		return conf->modules;
	return NULL;
}

/* A '#' after a blank starts a comment; one right after '=' is a look's
 * color. */
static void cut_comment(char *value)
{
	char *p;

	for (p = value; (p = strchr(p, '#')); p++)
		if (p > value && strchr(BLANKS, p[-1])) {
			*p = '\0';
			return;
		}
}

static int parse_line(struct led_stage_conf *conf, char *line, int n,
		      struct kit_err *e)
{
	char *eq = strchr(line, '='), *key, *value, *to;
	int *key_line;

	line = trim(line);
	if (!*line || *line == '#')
		return 0;
	if (!eq)
		return kit_fail(e, EXIT_RUNTIME, 0, "'%s' is no KEY=VALUE",
				line);
	*eq = '\0';
	key = trim(line);
	value = eq + 1;
	cut_comment(value + strspn(value, BLANKS));
	value = trim(value);
	to = slot(conf, key, &key_line);
	if (!to)
		return kit_fail(e, EXIT_RUNTIME, 0, "unknown key '%s'; keys: "
				"led modules %s %s %s %s", key, stages[0].name,
				stages[1].name, stages[2].name, stages[3].name);
	if (strlen(value) >= LEDSTAGE_LINE)
		return kit_fail(e, EXIT_RUNTIME, 0, "%s is longer than %d "
				"bytes", key, LEDSTAGE_LINE - 1);
	strcpy(to, value);
	if (key_line)
		*key_line = n;
	return 0;
}

int led_stage_parse(struct led_stage_conf *conf, char *text, size_t len,
		    int *line_no, struct kit_err *e)
{
	char *line, *next, *end, *nul = memchr(text, '\0', len);

	for (line = text, *line_no = 1; line; line = next, ++*line_no) {
		next = strchr(line, '\n');
		/* strchr() stops at the NUL: it is on this line. */
		if (nul && !next)
			return kit_fail(e, EXIT_RUNTIME, 0, "a NUL byte: is it "
					"the LED's configuration, a text "
					"file?");
		if (next)
			*next++ = '\0';
		/* A CRLF line end, as a file written on Windows has. */
		end = strchr(line, '\0');
		if (end > line && end[-1] == '\r')
			end[-1] = '\0';
		if (parse_line(conf, line, *line_no, e))
			return -1;
	}
	return 0;
}

int led_stage_look_args(char *look, char **argv, int max)
{
	char *save = NULL, *word;
	int n = 0;

	while (n < max && (word = strtok_r(n ? NULL : look, BLANKS, &save))) {
		argv[n++] = word;
		/* The pattern's pairs are one argument of mcled's. */
		if (n == 2 && !strcmp(word, "pattern") && save && *save) {
			argv[n++] = trim(save);
			break;
		}
	}
	return n < 2 ? -1 : n;
}

const char *led_stage_led(const struct led_stage_conf *conf, char *cmdline,
			  char *buf, size_t size)
{
	char *param, *val;

	snprintf(buf, size, "%s", conf->led);
	while ((cmdline = cmdline_next(cmdline, &param, &val)))
		if (val && !strcmp(param, CMDLINE_KEY))
			snprintf(buf, size, "%s", val);
	return strcmp(buf, LEDSTAGE_OFF) ? buf : NULL;
}

int led_stage_add_module(struct led_stage_conf *conf, const char *module)
{
	size_t len = strlen(conf->modules), mlen = strlen(module);
	const char *p = conf->modules;

	while (*(p += strspn(p, BLANKS))) {
		if (strcspn(p, BLANKS) == mlen && !strncmp(p, module, mlen))
			return 0;
		p += strcspn(p, BLANKS);
	}
	if (len + 1 + mlen >= sizeof(conf->modules))
		return -1;
	snprintf(conf->modules + len, sizeof(conf->modules) - len, "%s%s",
		 len ? " " : "", module);
	return 0;
}

void led_stage_print(const struct led_stage_conf *conf, FILE *out)
{
	int i;

	fprintf(out, "led=%s\nmodules=%s\n", conf->led, conf->modules);
	for (i = 0; i < LEDSTAGE_COUNT; i++)
		fprintf(out, "%s=%s\n", stages[i].name, conf->look[i]);
}
