/*
 * acpi.c - ACPI S5 poweroff: finds \_S5 through RSDP -> RSDT -> FADT ->
 * DSDT at boot (acpi_init), and power_off() writes SLP_TYP|SLP_EN.
 */
#include <stddef.h>
#include <stdint.h>

#include "../common/pagegen.h"
#include "winlike.h"

struct acpi_s5 s5;

/* physical address -> pointer, hidden from GCC's null-page array checks */
static inline const uint8_t *phys(uint32_t a)
{
	__asm__("" : "+r"(a));
	return (const uint8_t *)(uintptr_t)a;
}

static int acpi_sum_ok(const uint8_t *p, uint32_t len)
{
	uint8_t s = 0;
	while (len--)
		s = (uint8_t)(s + *p++);
	return s == 0;
}

static const uint8_t *find_rsdp_in(uint32_t start, uint32_t len)
{
	uint32_t a;
	for (a = start; a + 20 <= start + len; a += 16) {
		const uint8_t *p = phys(a);
		if (memcmp(p, "RSD PTR ", 8) == 0 && acpi_sum_ok(p, 20))
			return p;
	}
	return NULL;
}

void acpi_init(void)
{
	const uint8_t *rsdp, *rsdt, *fadt = NULL, *dsdt, *s;
	uint32_t ebda, len, i, n;

	s5.why = "no_rsdp";
	ebda = (uint32_t)pg_rd32(phys(0x40c)) >> 16 << 4; /* u16 at 0x40e */
	rsdp = ebda >= 0x80000 && ebda < 0xa0000 ? find_rsdp_in(ebda, 1024) : NULL;
	if (!rsdp)
		rsdp = find_rsdp_in(0xe0000, 0x20000);
	if (!rsdp)
		return;
	rsdt = phys(pg_rd32(rsdp + 16));
	s5.why = "bad_rsdt";
	if (!rsdt || memcmp(rsdt, "RSDT", 4) != 0)
		return;
	len = pg_rd32(rsdt + 4);
	if (len < 36 || len > 65536 || !acpi_sum_ok(rsdt, len))
		return;
	n = (len - 36) / 4;
	for (i = 0; i < n; i++) {
		const uint8_t *t = phys(pg_rd32(rsdt + 36 + 4 * i));
		if (t && memcmp(t, "FACP", 4) == 0) {
			fadt = t;
			break;
		}
	}
	s5.why = "no_fadt";
	if (!fadt || pg_rd32(fadt + 4) < 76)
		return;
	dsdt = phys(pg_rd32(fadt + 40));
	s5.smi_cmd = (uint16_t)pg_rd32(fadt + 48);
	s5.acpi_enable = fadt[52];
	s5.pm1a_cnt = (uint16_t)pg_rd32(fadt + 64);
	s5.pm1b_cnt = (uint16_t)pg_rd32(fadt + 68);
	s5.why = "no_dsdt";
	if (!dsdt || memcmp(dsdt, "DSDT", 4) != 0 || !s5.pm1a_cnt)
		return;
	len = pg_rd32(dsdt + 4);
	s5.why = "no_s5";
	for (s = dsdt + 36; s + 12 < dsdt + len; s++) {
		const uint8_t *q;

		if (memcmp(s, "_S5_", 4) != 0)
			continue;
		/* NameOp "_S5_" or NameOp "\_S5_", then PackageOp */
		if (!(s[-1] == 0x08 || (s[-2] == 0x08 && s[-1] == '\\')) ||
		    s[4] != 0x12)
			continue;
		q = s + 5;
		q += ((*q & 0xc0) >> 6) + 1; /* PkgLength */
		q++;                         /* NumElements */
		if (*q == 0x0a)              /* BytePrefix */
			q++;
		s5.slp_typa = (uint16_t)((*q == 0xff ? 0 : *q) & 7u);
		q++;
		if (*q == 0x0a)
			q++;
		s5.slp_typb = (uint16_t)((*q == 0xff ? 0 : *q) & 7u);
		s5.ok = 1;
		s5.why = "ok";
		return;
	}
}

void power_off(void)
{
	serial_drain();
	if (s5.ok) {
		unsigned spin;

		if (!(inw(s5.pm1a_cnt) & 1u) && s5.smi_cmd && s5.acpi_enable) {
			outb(s5.smi_cmd, s5.acpi_enable);
			for (spin = 0; spin < 300 && !(inw(s5.pm1a_cnt) & 1u); spin++)
				idle_until(now_us() + 10000u);
		}
		outw(s5.pm1a_cnt, (uint16_t)(s5.slp_typa << 10 | 1u << 13));
		if (s5.pm1b_cnt)
			outw(s5.pm1b_cnt, (uint16_t)(s5.slp_typb << 10 | 1u << 13));
		idle_until(now_us() + 500000u);
	}
	out("HOG poweroff_failed acpi=%s halting=1", s5.why);
	serial_drain();
	for (;;)
		__asm__ volatile("cli; hlt");
}
