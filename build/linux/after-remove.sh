#!/bin/sh
# Pinbridge deb: after-remove (postrm) script, given to electron-builder as deb.afterRemove.
#
# It replaces electron-builder's own after-remove script, so it does what that one does (the
# /usr/bin link, the AppArmor profile) and removes the PINPAD udev rule that after-install.sh
# copied (dpkg does not own that file, so it would stay behind). On an upgrade (first argument
# "upgrade") the rule stays: the new version's after-install puts its own in place.
#
# The user's data in ~/.pinbridge (journal, settings, paired POS clients) is never touched: the
# journal is the store's record of its sales.
#
# electron-builder fills in the executable and sanitizedProductName macros; every other $-word
# is a plain shell variable and must stay without braces (see after-install.sh).

set -e

root=$DPKG_ROOT
app_dir='/opt/${sanitizedProductName}'
executable='${executable}'
rule_file="$root/lib/udev/rules.d/60-pinbridge-pinpad.rules"

if command -v update-alternatives >/dev/null 2>&1; then
  update-alternatives --remove "$executable" "$app_dir/$executable" || true
else
  rm -f "$root/usr/bin/$executable"
fi

profile="$root/etc/apparmor.d/$executable"
if [ -f "$profile" ]; then
  # Unload before deleting, so the policy is not left enforced until the next reboot.
  if apparmor_status --enabled >/dev/null 2>&1 && ! { [ -x /usr/bin/ischroot ] && /usr/bin/ischroot; }; then
    apparmor_parser --remove "$profile" || true
  fi
  rm -f "$profile"
fi

case "$1" in
  remove | purge)
    if [ -f "$rule_file" ]; then
      rm -f "$rule_file"
      if command -v udevadm >/dev/null 2>&1; then
        udevadm control --reload-rules >/dev/null 2>&1 || true
      fi
    fi
    ;;
esac

exit 0
