#!/bin/sh
# Pinbridge deb: after-install (postinst) script, given to electron-builder as deb.afterInstall.
#
# It replaces electron-builder's own after-install script, so it first does what that one does
# (the /usr/bin link, chrome-sandbox mode, desktop and MIME databases, AppArmor profile), then
# installs the PINPAD udev rule, reloads udev so a plugged PINPAD gets the new permissions, and
# tells the installer that the cashier's user must be in the dialout group.
#
# electron-builder fills in the executable and sanitizedProductName macros (dollar sign plus the
# name in braces) when it writes the package; every other $-word below is a plain shell variable
# and must stay without braces, or the packaging fails with "Macro ... is not defined".
#
# Safe to run again (dpkg runs it on every install and upgrade): every step overwrites or
# re-checks. Paths are prefixed with $DPKG_ROOT, dpkg's convention for installs into another root.

set -e

root=$DPKG_ROOT
app_dir='/opt/${sanitizedProductName}'
executable='${executable}'
rule_name='60-pinbridge-pinpad.rules'
rule_source="$root$app_dir/resources/udev/$rule_name"
rule_dir="$root/lib/udev/rules.d"

# --- What electron-builder's default script does -------------------------------------------

link="$root/usr/bin/$executable"
target="$app_dir/$executable"
if command -v update-alternatives >/dev/null 2>&1; then
  # A plain link left by an older install would make update-alternatives refuse the path.
  if [ -L "$link" ] && [ "$(readlink "$link")" != "/etc/alternatives/$executable" ]; then
    rm -f "$link"
  fi
  update-alternatives --install "/usr/bin/$executable" "$executable" "$target" 100 ||
    ln -sf "$target" "$link"
else
  ln -sf "$target" "$link"
fi

# Chromium's SUID sandbox helper is only needed where unprivileged user namespaces do not work.
if [ -L /proc/self/ns/user ] && unshare --user true >/dev/null 2>&1; then
  chmod 0755 "$root$app_dir/chrome-sandbox" || true
else
  chmod 4755 "$root$app_dir/chrome-sandbox" || true
fi

if command -v update-mime-database >/dev/null 2>&1; then
  update-mime-database "$root/usr/share/mime" || true
fi
if command -v update-desktop-database >/dev/null 2>&1; then
  update-desktop-database "$root/usr/share/applications" || true
fi

# Ubuntu 24.04+ restricts unprivileged user namespaces through AppArmor; Electron needs the
# profile electron-builder ships in resources/. Older AppArmor (22.04) cannot parse it and does
# not need it, hence the dry run first.
if apparmor_status --enabled >/dev/null 2>&1; then
  profile_source="$root$app_dir/resources/apparmor-profile"
  profile_target="$root/etc/apparmor.d/$executable"
  if apparmor_parser --skip-kernel-load --debug "$profile_source" >/dev/null 2>&1; then
    cp -f "$profile_source" "$profile_target"
    # Loading into the kernel makes no sense in a chroot (image building).
    if ! { [ -x /usr/bin/ischroot ] && /usr/bin/ischroot; }; then
      apparmor_parser --replace --write-cache --skip-read-cache "$profile_target" || true
    fi
  else
    echo "Pinbridge: this AppArmor cannot load the bundled profile; skipped (not needed here)."
  fi
fi

# --- PINPAD serial ports ---------------------------------------------------------------------

mkdir -p "$rule_dir"
install -m 0644 "$rule_source" "$rule_dir/$rule_name"

# Containers and chroots have no running udev; the rule then applies from the next boot.
if command -v udevadm >/dev/null 2>&1 && udevadm control --reload-rules >/dev/null 2>&1; then
  udevadm trigger --subsystem-match=tty --action=change >/dev/null 2>&1 || true
  echo "Pinbridge: udev rule $rule_name installed and loaded."
else
  echo "Pinbridge: udev rule $rule_name installed; udev is not running here, it applies from the next boot."
fi

cat <<'NOTE'

Pinbridge — PINPAD USB / Bluetooth serial
  PT: o usuário que abre o Pinbridge no caixa precisa estar no grupo "dialout" para usar o
      PINPAD pela porta serial. Rode uma vez:  sudo usermod -aG dialout $USER
      e depois saia da sessão e entre de novo (o grupo só vale numa sessão nova).
  EN: the user who runs Pinbridge at the checkout must be in the "dialout" group to open the
      PINPAD's serial port. Run once:  sudo usermod -aG dialout $USER
      then log out and back in (group membership applies to new sessions only).
NOTE

# apt run through sudo tells us who is installing: say whether that user still needs it.
if [ -n "$SUDO_USER" ] && [ "$SUDO_USER" != root ]; then
  if id -nG "$SUDO_USER" 2>/dev/null | tr ' ' '\n' | grep -qx dialout; then
    echo "  $SUDO_USER: already in dialout."
  else
    echo "  $SUDO_USER: not in dialout yet -> sudo usermod -aG dialout $SUDO_USER"
  fi
fi

exit 0
