// SPDX-License-Identifier: GPL-2.0
/*
 * rdfs: the filesystems the kernel's identify_ramdisk_image() knows at
 * the start of a RAM-disk image, in its order, with the size it gives
 * each.  A plain image is one of them; a compressed one holds one.
 */
#include <string.h>

#include "rd/rdimage.h"

/* The kernel reads minix and cramfs fields in the CPU's byte order. */
static uint16_t get_host16(const unsigned char *p)
{
	uint16_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

static uint32_t get_host32(const unsigned char *p)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

/* value << shift, saturated: sizes come from untrusted superblocks. */
static uint64_t shift_kib(uint64_t value, unsigned int shift)
{
	if (shift >= 64 || value > UINT64_MAX >> shift)
		return UINT64_MAX;
	return value << shift;
}

static bool found_fs(struct ident *id, const char *fs, uint64_t kib)
{
	id->fs = fs;
	id->kib = kib;
	return true;
}

static bool identify_cramfs(const unsigned char *sb, struct ident *id)
{
	if (get_host32(sb) != CRAMFS_MAGIC)
		return false;
	return found_fs(id, "cramfs", bytes_to_kib(get_host32(sb + 4)));
}

/*
 * romfs, cramfs, squashfs, cramfs padded by 512, then minix and ext2 in
 * the next KiB (RD_BLOCK, the ext2 superblock's place).
 */
bool rd_identify_fs(const unsigned char *head, struct ident *id)
{
	const unsigned char *sb = head + RD_BLOCK;
	uint64_t squashfs_bytes;

	memset(id, 0, sizeof(*id));
	if (!memcmp(head, "-rom1fs-", 8))
		return found_fs(id, "romfs", bytes_to_kib(get_be32(head + 8)));
	if (identify_cramfs(head, id))
		return true;
	if (get_le32(head) == SQUASHFS_MAGIC) {
		squashfs_bytes = get_le32(head + 40) |
				 (uint64_t)get_le32(head + 44) << 32;
		return found_fs(id, "squashfs", bytes_to_kib(squashfs_bytes));
	}
	if (identify_cramfs(head + 512, id))
		return true;
	if (get_host16(sb + 16) == MINIX_MAGIC ||
	    get_host16(sb + 16) == MINIX_MAGIC2)
		return found_fs(id, "Minix", shift_kib(get_host16(sb + 2),
						       get_host16(sb + 10)));
	if (ext2_magic(sb) && get_le32(sb + 4))
		return found_fs(id, "ext2", shift_kib(get_le32(sb + 4),
						      get_le32(sb + 0x18)));
	return false;
}
