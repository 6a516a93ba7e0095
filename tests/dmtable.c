/*
 * dmtable: device-mapper devices for the rdload tests in the VM guests,
 * whose busybox has no dmsetup.  Built static by tests/guest/rdload.host.
 *
 *   dmtable create NAME 'START LENGTH TYPE ARGS'...
 *       a device of these targets (dmsetup's table lines, in 512-byte
 *       sectors), resumed; prints its node, /dev/dm-MINOR
 *   dmtable remove NAME
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/dm-ioctl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/sysmacros.h>
#include <unistd.h>

static int control = -1;
static union {
	struct dm_ioctl io;
	char bytes[16384];
} buf;

static void die(const char *fmt, ...)
{
	va_list ap;

	fputs("dmtable: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

/* A fresh request about device NAME, in buf. */
static struct dm_ioctl *request(const char *name)
{
	struct dm_ioctl *io = &buf.io;

	memset(&buf, 0, sizeof(buf));
	io->version[0] = DM_VERSION_MAJOR;
	io->data_size = sizeof(buf);
	io->data_start = sizeof(*io);
	if (strlen(name) >= sizeof(io->name))
		die("name too long: %s", name);
	strcpy(io->name, name);
	return io;
}

static void call(unsigned long cmd, const char *what)
{
	if (ioctl(control, cmd, &buf.io))
		die("%s %s: %s", what, buf.io.name, strerror(errno));
}

/* Appends table line LINE after the request's header, at *pos. */
static void add_target(const char *line, size_t *pos)
{
	struct dm_target_spec *spec = (void *)(buf.bytes + *pos);
	unsigned long long start, length;
	char type[DM_MAX_TYPE_NAME];
	size_t size;
	int args;

	if (sscanf(line, "%llu %llu %15s %n", &start, &length, type,
		   &args) != 3)
		die("not a table line: %s", line);
	size = sizeof(*spec) + strlen(line + args) + 1;
	size = (size + 7) & ~(size_t)7;
	if (*pos + size > sizeof(buf))
		die("table too long");
	spec->sector_start = start;
	spec->length = length;
	strcpy(spec->target_type, type);
	strcpy((char *)(spec + 1), line + args);
	spec->next = size;	/* from this spec to the next */
	*pos += size;
	buf.io.target_count++;
}

static void create(const char *name, char **lines, int count)
{
	size_t pos = sizeof(struct dm_ioctl);
	int i;

	request(name);
	call(DM_DEV_CREATE, "create");
	request(name);
	for (i = 0; i < count; i++)
		add_target(lines[i], &pos);
	call(DM_TABLE_LOAD, "load the table of");
	request(name);		/* suspend without DM_SUSPEND_FLAG resumes */
	call(DM_DEV_SUSPEND, "resume");
	printf("/dev/dm-%u\n", minor(buf.io.dev));
}

int main(int argc, char **argv)
{
	control = open("/dev/mapper/control", O_RDWR | O_CLOEXEC);
	if (control < 0)
		die("/dev/mapper/control: %s (is dm_mod loaded?)",
		    strerror(errno));
	if (argc >= 4 && !strcmp(argv[1], "create")) {
		create(argv[2], argv + 3, argc - 3);
	} else if (argc == 3 && !strcmp(argv[1], "remove")) {
		request(argv[2]);
		call(DM_DEV_REMOVE, "remove");
	} else {
		die("usage: dmtable create NAME 'START LENGTH TYPE ARGS'... | "
		    "dmtable remove NAME");
	}
	return 0;
}
