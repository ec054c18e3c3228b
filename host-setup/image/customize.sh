#!/usr/bin/env bash
# mmdebstrap customize hook: turn the bootstrapped tree ($1) into the lab's
# host image. Runs on the build machine with the tree as an argument.
set -euo pipefail
root=$1
here=$(cd "$(dirname "$0")" && pwd)

echo kit-host >"$root/etc/hostname"
printf '127.0.0.1 localhost\n127.0.1.1 kit-host\n' >"$root/etc/hosts"
chroot "$root" passwd -d root >/dev/null
printf 'LABEL=kit-root / ext4 rw,errors=remount-ro 0 1\n' >"$root/etc/fstab"

# The boot stub that mounts the repository and hands over to it.
install -m 0755 "$here/kit-boot" "$root/usr/local/sbin/kit-boot"
install -m 0644 "$here/kit-boot.service" "$root/etc/systemd/system/kit-boot.service"
ln -sf /etc/systemd/system/kit-boot.service \
	"$root/etc/systemd/system/multi-user.target.wants/kit-boot.service"

# Root logs in on the serial console without a password (lab shell).
mkdir -p "$root/etc/systemd/system/serial-getty@ttyS0.service.d"
cat >"$root/etc/systemd/system/serial-getty@ttyS0.service.d/autologin.conf" <<'EOT'
[Service]
ExecStart=
ExecStart=-/sbin/agetty --autologin root --noclear --keep-baud 115200,57600,38400,9600 %I $TERM
EOT

# Services that slow boot or shutdown, or make no sense without a network.
# libvirt-guests waited 300 s at shutdown in our trials.
for unit in libvirt-guests.service apt-daily.timer apt-daily-upgrade.timer \
	man-db.timer e2scrub_all.timer e2scrub_reap.service fstrim.timer \
	logrotate.timer dpkg-db-backup.timer systemd-timesyncd.service \
	systemd-networkd-wait-online.service networking.service \
	sysstat.service sysstat-collect.timer sysstat-summary.timer; do
	ln -sf /dev/null "$root/etc/systemd/system/$unit"
done
# libvirt's default NAT network is not used by the lab's guests.
rm -f "$root/etc/libvirt/qemu/networks/autostart/default.xml"

# Keep the journal in memory: every run boots a throwaway snapshot anyway.
mkdir -p "$root/etc/systemd/journald.conf.d"
printf '[Journal]\nStorage=volatile\n' >"$root/etc/systemd/journald.conf.d/kit.conf"

# Module dependency data for the pinned kernel (needed by modprobe).
for kdir in "$root"/lib/modules/*; do
	chroot "$root" depmod "$(basename "$kdir")"
done

# Mount points for the 9p shares.
mkdir -p "$root/kit" "$root/kit-out" "$root/kit-ctl"
rm -rf "$root/var/cache/apt/archives/"*.deb "$root/var/lib/apt/lists/"*_Packages 2>/dev/null || true
