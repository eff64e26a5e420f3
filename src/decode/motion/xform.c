/* SPDX-License-Identifier: MIT */
/* xform.c - 4x4 matrices and quaternions of the game's turns (xform.h). */
#include "config.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

#include "decode/motion/xform.h"

#define DEG (3.14159265358979323846 / 180.0)

void xform_identity(xform m)
{
	memset(m, 0, sizeof(xform));
	m[0] = m[5] = m[10] = m[15] = 1;
}

void xform_mul(xform out, const xform a, const xform b)
{
	xform r;
	for (int c = 0; c < 4; c++)
		for (int row = 0; row < 4; row++) {
			double v = 0;
			for (int k = 0; k < 4; k++)
				v += a[k * 4 + row] * b[c * 4 + k];
			r[c * 4 + row] = v;
		}
	memcpy(out, r, sizeof r);
}

/* Rotation about one axis (0 x, 1 y, 2 z) by deg degrees. */
static void axis_turn(xform m, int axis, double deg)
{
	double c = cos(deg * DEG), s = sin(deg * DEG);
	int i = (axis + 1) % 3, j = (axis + 2) % 3;
	xform_identity(m);
	m[i * 4 + i] = c;
	m[i * 4 + j] = s;
	m[j * 4 + i] = -s;
	m[j * 4 + j] = c;
}

void xform_trs(xform m, const float t[3], const float r_deg[3],
	       const float s[3])
{
	xform turn;
	xform_identity(m);
	for (int a = 0; a < 3; a++) {
		axis_turn(turn, a, r_deg[a]);
		xform_mul(m, m, turn);
	}
	for (int a = 0; a < 3; a++)
		for (int row = 0; row < 3; row++)
			m[a * 4 + row] *= s[a];
	for (int row = 0; row < 3; row++)
		m[12 + row] = t[row];
}

void xform_point(const xform m, const float p[3], double out[3])
{
	for (int row = 0; row < 3; row++)
		out[row] = m[row] * p[0] + m[4 + row] * p[1] +
			   m[8 + row] * p[2] + m[12 + row];
}

/* Gauss-Jordan with partial pivoting: the matrices are small and few. */
bool xform_invert(xform out, const xform m)
{
	double a[4][8];
	for (int r = 0; r < 4; r++)
		for (int c = 0; c < 4; c++) {
			a[r][c] = m[c * 4 + r];
			a[r][c + 4] = r == c;
		}
	for (int c = 0; c < 4; c++) {
		int best = c;
		for (int r = c + 1; r < 4; r++)
			if (fabs(a[r][c]) > fabs(a[best][c]))
				best = r;
		if (fabs(a[best][c]) < 1e-12) {
			xform_identity(out);
			return false;
		}
		for (int k = 0; k < 8; k++) {
			double tmp = a[c][k];
			a[c][k] = a[best][k];
			a[best][k] = tmp;
		}
		double d = a[c][c];
		for (int k = 0; k < 8; k++)
			a[c][k] /= d;
		for (int r = 0; r < 4; r++) {
			if (r == c || a[r][c] == 0)
				continue;
			double f = a[r][c];
			for (int k = 0; k < 8; k++)
				a[r][k] -= f * a[c][k];
		}
	}
	for (int r = 0; r < 4; r++)
		for (int c = 0; c < 4; c++)
			out[c * 4 + r] = a[r][c + 4];
	return true;
}

/* q = a * b, quaternions as (x, y, z, w). */
static void quat_mul(double q[4], const double a[4], const double b[4])
{
	double r[4] = {
		a[3] * b[0] + a[0] * b[3] + a[1] * b[2] - a[2] * b[1],
		a[3] * b[1] - a[0] * b[2] + a[1] * b[3] + a[2] * b[0],
		a[3] * b[2] + a[0] * b[1] - a[1] * b[0] + a[2] * b[3],
		a[3] * b[3] - a[0] * b[0] - a[1] * b[1] - a[2] * b[2],
	};
	memcpy(q, r, sizeof r);
}

static void quat_axis(double q[4], int axis, double deg)
{
	q[0] = q[1] = q[2] = 0;
	q[axis] = sin(deg * DEG / 2);
	q[3] = cos(deg * DEG / 2);
}

/* The product of turns about the axes in `order`, each by its angle. */
static void quat_chain(const int order[], const double deg[], int n,
		       float out[4])
{
	double q[4] = { 0, 0, 0, 1 }, t[4];
	for (int i = 0; i < n; i++) {
		quat_axis(t, order[i], deg[i]);
		quat_mul(q, q, t);
	}
	double len = sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
	for (int i = 0; i < 4; i++)
		out[i] = (float)(q[i] / len);
}

void xform_quat_of_xyz(const float r_deg[3], float q[4])
{
	static const int order[3] = { 0, 1, 2 };
	double deg[3] = { r_deg[0], r_deg[1], r_deg[2] };
	quat_chain(order, deg, 3, q);
}

void xform_quat_of_camera(const float r_deg[3], float q[4])
{
	/* The game's view space looks down +Z with +Y down; its matrix
	 * has a half turn about X that takes it to the artist's camera,
	 * which looks down -Z with +Y up as glTF's does.  So the node gets
	 * the record's turn alone. */
	static const int order[3] = { 2, 1, 0 };
	double deg[3] = { r_deg[2], r_deg[1], r_deg[0] };
	quat_chain(order, deg, 3, q);
}

float xform_round_angle(float deg)
{
	double units = (double)deg * 182.044;
	/* int() truncates toward zero; the s16 keeps the low 16 bits.  A
	 * key from the file may be NaN or huge, which no integer holds:
	 * those turn by nothing (asked as "within range" so NaN fails). */
	long long whole = (long long)(units > -9e15 && units < 9e15 ? units : 0);
	int16_t s = (int16_t)(uint16_t)(whole & 0xffff);
	return (float)(s * 360.0 / 65536.0);
}
