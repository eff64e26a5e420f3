/* source.c - the root of the tree from a host directory or archive. */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "archive.h"
#include "log.h"
#include "member.h"
#include "source.h"

/* Reads a file's first sector and asks whether it opens an archive. */
static int probe_file(const char *path, bool *is_archive)
{
	*is_archive = false;
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	uint8_t sector[ARCHIVE_SECTOR];
	ssize_t got = pread(fd, sector, sizeof sector, 0);
	int rc = got < 0 ? -errno : 0;
	close(fd);
	if (got > 0)
		*is_archive = archive_probe(sector, (size_t)got);
	return rc;
}

static int populate_host_dir(struct fs *fs, struct node *dir);

static void add_host_entry(struct dir_builder *b, const char *dirpath,
			   const char *name)
{
	char path[4096];
	struct stat st;
	if ((size_t)snprintf(path, sizeof path, "%s/%s", dirpath, name) >=
	    sizeof path)
		return;
	if (stat(path, &st) < 0) {
		log_error("%s: %s", path, strerror(errno));
		return;
	}
	if (S_ISDIR(st.st_mode)) {
		const char *copy = fs_strdup(b->fs, path);
		dir_add_dir(b, name, st.st_mtime, populate_host_dir,
			    (void *)copy);
		return;
	}
	if (!S_ISREG(st.st_mode))
		return;
	bool is_archive = false;
	int rc = probe_file(path, &is_archive);
	if (rc < 0)
		log_error("%s: %s", path, strerror(-rc));
	if (is_archive)
		archive_dir_add(b, name, st.st_mtime, path, NULL);
	else
		dir_add_host_file(b, name, st.st_mtime, path,
				  (uint64_t)st.st_size);
}

static int populate_host_dir(struct fs *fs, struct node *dir)
{
	const char *dirpath = dir->u.dir.ctx;
	DIR *d = opendir(dirpath);
	if (!d) {
		int rc = -errno;
		log_error("%s: %s", dirpath, strerror(errno));
		return rc;
	}
	struct dir_builder b;
	dir_builder_init(&b, fs, dir);
	struct dirent *e;
	while ((e = readdir(d)) != NULL) {
		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		add_host_entry(&b, dirpath, e->d_name);
	}
	closedir(d);
	return dir_publish(&b);
}

int source_open(struct fs *fs, const char *path, char *err, size_t errlen)
{
	struct stat st;
	if (stat(path, &st) < 0) {
		int rc = -errno;
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return rc;
	}
	if (S_ISDIR(st.st_mode)) {
		if (access(path, R_OK | X_OK) < 0) {
			int rc = -errno;
			snprintf(err, errlen, "%s: %s", path, strerror(errno));
			return rc;
		}
		char *abs = realpath(path, NULL);
		const char *copy = abs ? fs_strdup(fs, abs) : NULL;
		free(abs);
		fs->root = copy ? node_new_dir(fs, "", st.st_mtime,
					       populate_host_dir, (void *)copy)
				: NULL;
		return fs->root ? 0 : -ENOMEM;
	}
	if (!S_ISREG(st.st_mode)) {
		snprintf(err, errlen, "%s: not a directory, disc image or "
			 "archive", path);
		return -EINVAL;
	}
	bool is_archive = false;
	int rc = probe_file(path, &is_archive);
	if (rc < 0) {
		snprintf(err, errlen, "%s: %s", path, strerror(-rc));
		return rc;
	}
	if (!is_archive) {
		snprintf(err, errlen, "%s: not a game archive (its first sector "
			 "does not open a gzip member)", path);
		return -EINVAL;
	}
	char *abs = realpath(path, NULL);
	fs->root = archive_dir_root(fs, st.st_mtime, abs ? abs : path);
	free(abs);
	return fs->root ? 0 : -ENOMEM;
}
