# bench/swap-config.sh: sourced by bench/in-vm and bench/idle-cost/in-vm.
# Sets up and tears down each configuration's swap (disk, zram, zswap,
# ramzswap). Uses their globals hdd, ssd, swap_mib, rzs_ko, rzs_max_zpage
# and kit, and their gv and say; sets swapdev, rzsdev and note for them.
# shellcheck shell=bash disable=SC2154,SC2034 # the globals are the caller's
swapdev=      # block device name whose diskstats are the swap latency
rzsdev=       # ramzswap0 or zram0 (mm_stat), or empty

dev_name() { basename "$(readlink -f "$1")"; }

setup_config() { # CONFIG -> 0 ready, 1 unavailable (reason in $note)
	local c=$1 err
	swapdev='' rzsdev='' note=''
	case $c in
	noswap) ;;
	hdd | ssd)
		local d=$hdd
		[ "$c" = ssd ] && d=$ssd
		[ -b "$d" ] || { note="no disk $d (run with --disk $c:SIZE:$c)"; return 1; }
		mkswap -f "$d" >/dev/null
		swapon -p 100 "$d"
		swapdev=$(dev_name "$d")
		;;
	zram)
		modprobe zram num_devices=1 || { note="modprobe zram failed"; return 1; }
		echo lzo >/sys/block/zram0/comp_algorithm
		echo "${swap_mib}M" >/sys/block/zram0/disksize
		mkswap /dev/zram0 >/dev/null
		swapon -p 100 /dev/zram0
		swapdev=zram0 rzsdev=zram0
		;;
	zswap)
		[ -b "$hdd" ] || { note="no disk $hdd"; return 1; }
		[ -d /sys/module/zswap ] || { note="no zswap in this kernel"; return 1; }
		echo lzo >/sys/module/zswap/parameters/compressor || true
		echo zbud >/sys/module/zswap/parameters/zpool || true
		echo Y >/sys/module/zswap/parameters/enabled
		mkswap -f "$hdd" >/dev/null
		swapon -p 100 "$hdd"
		swapdev=$(dev_name "$hdd")
		;;
	ramzswap | ramzswap-bk)
		[ -f "$rzs_ko" ] || { note="unavailable: $rzs_ko not built"; return 1; }
		# ramzswap0 is configured at load time by module parameters (as in
		# 2009): disksize, backing_swap; the default compressor is lzo.
		local -a mp=(disksize="${swap_mib}M")
		if [ "$c" = ramzswap-bk ]; then
			[ -b "$hdd" ] || { note="unavailable: no backing disk $hdd"; return 1; }
			mp+=(backing_swap="$(readlink -f "$hdd")")
		fi
		if ! err=$(insmod "$rzs_ko" "${mp[@]}" 2>&1); then
			note="unavailable: insmod ${mp[*]} failed: $err $(dmesg | grep -a ramzswap | tail -n1)"
			return 1
		fi
		udevadm settle --timeout=30 || true
		[ -e /sys/block/ramzswap0/disksize ] || { note="unavailable: no /sys/block/ramzswap0"; return 1; }
		if [ "$(cat /sys/block/ramzswap0/initstate)" != 1 ]; then
			# Not initialised by the parameters: configure through sysfs.
			if [ "$c" = ramzswap-bk ] && ! err=$( (readlink -f "$hdd" >/sys/block/ramzswap0/backing_dev) 2>&1); then
				note="unavailable: backing_dev: $err"
				return 1
			fi
			if ! err=$( (echo "${swap_mib}M" >/sys/block/ramzswap0/disksize) 2>&1); then
				note="unavailable: disksize: $err"
				return 1
			fi
		fi
		if [ -n "$rzs_max_zpage" ] && ! err=$( (echo "$rzs_max_zpage" >/sys/block/ramzswap0/max_zpage_size) 2>&1); then
			note="unavailable: max_zpage_size $rzs_max_zpage: $err $(dmesg | grep -a ramzswap | tail -n1)"
			return 1
		fi
		mkswap /dev/ramzswap0 >/dev/null
		swapon -p 100 /dev/ramzswap0 || { note="unavailable: swapon ramzswap0 failed"; return 1; }
		swapdev=ramzswap0 rzsdev=ramzswap0
		[ "$c" = ramzswap-bk ] && note="backing $(dev_name "$hdd") (hdd profile), mem_limit $(cat /sys/block/ramzswap0/mem_limit 2>/dev/null || echo ?)"
		;;
	*) note="unknown configuration"; return 1 ;;
	esac
	return 0
}

# swap_off: every swap area off, zram and ramzswap reset and unloaded,
# zswap disabled. Running guests are left alone (bench/idle-cost/in-vm
# switches the swap under them).
swap_off() {
	timeout 600 swapoff -a 2>/dev/null || say "swapoff did not finish"
	if [ -d /sys/module/zram ]; then
		echo 1 >/sys/block/zram0/reset 2>/dev/null || true
		timeout 60 rmmod zram 2>/dev/null || true
	fi
	if [ -d /sys/module/ramzswap ]; then
		echo 1 >/sys/block/ramzswap0/reset 2>/dev/null || true
		timeout 60 rmmod ramzswap 2>/dev/null || say "rmmod ramzswap failed"
	fi
	if [ -d /sys/module/zswap ]; then echo N >/sys/module/zswap/parameters/enabled 2>/dev/null || true; fi
}

# teardown: the guests destroyed, the swap off, the page cache dropped.
teardown() {
	"$kit/bench/svm-shutdowns" off 2>/dev/null || true
	gv destroy --all >/dev/null 2>&1 || true
	sleep 2
	swap_off
	sync
	echo 3 >/proc/sys/vm/drop_caches
	sleep 2
}
