/* diag: break down swap-cache pages by page flags from /proc/kpageflags */
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
enum { LOCKED=0, DIRTY=4, LRU=5, ACTIVE=6, WB=8, RECLAIM=9, MMAP=11, ANON=12, SWAPCACHE=13, SWAPBACKED=14, THP=22, UNEVICT=18, MLOCK=33, COMPOUND_HEAD=15, HUGE=17 };
int main(void)
{
	FILE *f = fopen("/proc/kpageflags", "rb"), *c = fopen("/proc/kpagecount", "rb");
	uint64_t fl[4096], cn[4096];
	size_t n, i;
	long heads = 0, hcnt[64] = {0}, tot = 0, cnt[64] = {0}, mapped_cnt1 = 0, mappedn = 0, combo[16] = {0};
	if (!f || !c) { perror("open"); return 1; }
	while ((n = fread(fl, 8, 4096, f)) > 0) {
		if (fread(cn, 8, n, c) != n) { perror("count"); return 1; }
		for (i = 0; i < n; i++) {
			if (!(fl[i] >> SWAPCACHE & 1)) continue;
			tot++;
			if (fl[i] >> COMPOUND_HEAD & 1) {
				heads++;
				for (int b = 0; b < 64; b++) if (fl[i] >> b & 1) hcnt[b]++;
			}
			for (int b = 0; b < 64; b++) if (fl[i] >> b & 1) cnt[b]++;
			if (cn[i] == 1) mapped_cnt1++; else if (cn[i] > 1) mappedn++;
			combo[(fl[i] >> MMAP & 1) | (fl[i] >> DIRTY & 1) << 1 | (fl[i] >> LRU & 1) << 2 | (fl[i] >> ACTIVE & 1) << 3]++;
		}
	}
	printf("swapcache %ld: locked %ld dirty %ld lru %ld active %ld wb %ld reclaim %ld mmap %ld anon %ld swapbacked %ld thp %ld unevict %ld mlock %ld; mapcount1 %ld >1 %ld\n",
	       tot, cnt[LOCKED], cnt[DIRTY], cnt[LRU], cnt[ACTIVE], cnt[WB], cnt[RECLAIM], cnt[MMAP], cnt[ANON], cnt[SWAPBACKED], cnt[THP], cnt[UNEVICT], cnt[MLOCK], mapped_cnt1, mappedn);
	printf("thp heads %ld: locked %ld referenced %ld dirty %ld lru %ld active %ld wb %ld reclaim %ld mmap %ld\n", heads, hcnt[LOCKED], hcnt[2], hcnt[DIRTY], hcnt[LRU], hcnt[ACTIVE], hcnt[WB], hcnt[RECLAIM], hcnt[MMAP]);
	printf("combo(mmap,dirty,lru,active):");
	for (i = 0; i < 16; i++) if (combo[i]) printf(" %zu%zu%zu%zu=%ld", i & 1, i >> 1 & 1, i >> 2 & 1, i >> 3 & 1, combo[i]);
	printf("\n");
	return 0;
}
