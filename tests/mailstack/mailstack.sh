#!/usr/bin/env bash
# Throwaway loopback mail stack for the integration tests:
#   Dovecot 2.3 (IMAP + IMAPS + LMTP)  <-  Postfix 3.7 (SMTP, submission, smtps; delivers via LMTP)
#
# Usage: MAILSTACK_DIR=/some/dir mailstack.sh up|down|status|dovecot-stop|dovecot-start
# Needs root and the Debian packages dovecot-imapd, dovecot-lmtpd, postfix and openssl.
# Loopback only: the daemons listen on 127.0.0.1 (and ::1 for IMAP when present) and Postfix
# has no route off this machine (default_transport = error:...), so nothing is ever relayed.
# Everything lives in $MAILSTACK_DIR; `up` on a stopped stack starts from empty mailboxes.
# tests/mailstack/__init__.py drives this script and picks free ports for it.
set -euo pipefail
D=${MAILSTACK_DIR:?set MAILSTACK_DIR to a directory this script may own}
IMAP=${MAILSTACK_IMAP_PORT:-14143}   IMAPS=${MAILSTACK_IMAPS_PORT:-14993}  LMTP=${MAILSTACK_LMTP_PORT:-14024}
SMTP=${MAILSTACK_SMTP_PORT:-14025}   SUBM=${MAILSTACK_SUBMISSION_PORT:-14587}  SMTPS=${MAILSTACK_SMTPS_PORT:-14465}
USERS=${MAILSTACK_USERS:-"moderator alice bob carol dave"}  PASS=${MAILSTACK_PASSWORD:-secret}
DOM=${MAILSTACK_DOMAIN:-example.test}
MUSER=${MAILSTACK_MAIL_USER:-nobody} MGROUP=${MAILSTACK_MAIL_GROUP:-nogroup}

# "alive" = exists and is not a zombie (a non-reaping PID 1 in containers leaves zombies for a while)
alive() { [ -n "$1" ] && [ -r "/proc/$1/status" ] && ! grep -q '^State:[[:space:]]*Z' "/proc/$1/status" 2>/dev/null; }
dovecot_pid() { cat "$D/run/dovecot/master.pid" 2>/dev/null || true; }
postfix_pid() { head -n1 "$D/postfix-spool/pid/master.pid" 2>/dev/null | tr -d ' ' || true; }
running() { alive "$(dovecot_pid)" && alive "$(postfix_pid)"; }
wait_port() {
  for _ in $(seq 200); do (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null && return; sleep 0.025; done
  echo "port $1 not listening; see $D/log" >&2; exit 1
}
print_env() { cat "$D/env"; }

# SIGTERM a master process (only if it is still a dovecot/postfix process), then wait for it.
stop_pid() {
  local p=$1
  alive "$p" && grep -qa -e dovecot -e postfix "/proc/$p/cmdline" || return 0
  kill "$p" 2>/dev/null || return 0
  for _ in $(seq 400); do alive "$p" || return 0; sleep 0.025; done
  kill -9 "$p" 2>/dev/null || true
}

# Dovecot's children (imap, imap-login, ...) can outlive a SIGTERMed master and keep serving
# their clients; they are named after this instance (instance_name), so end exactly those.
instance_pids() {
  local f p argv0
  for f in /proc/[0-9]*/cmdline; do
    argv0=; { IFS= read -r -d '' argv0 <"$f"; } 2>/dev/null || true
    if [[ $argv0 == "dovecot-mailstack-$IMAP/"* ]]; then p=${f#/proc/}; echo "${p%/cmdline}"; fi
  done
}
dovecot_stop() {  # children first: an imap process on SIGTERM says BYE to its client at once
  local p
  for p in $(instance_pids); do kill "$p" 2>/dev/null || true; done
  stop_pid "$(dovecot_pid)"
  for _ in $(seq 200); do [ -z "$(instance_pids)" ] && return 0; sleep 0.025; done
  for p in $(instance_pids); do kill -9 "$p" 2>/dev/null || true; done
}

postfix_start() {
  postfix -c "$D/postfix" start </dev/null >>"$D/log/postfix.stderr" 2>&1
  for p in $SMTP $SUBM $SMTPS; do wait_port "$p"; done
}

dovecot_start() {
  # daemons must not inherit our stdout/stderr (a capturing caller would hang on the pipe)
  dovecot -c "$D/dovecot.conf" </dev/null >>"$D/log/dovecot.stderr" 2>&1
  for p in $IMAP $IMAPS $LMTP; do wait_port "$p"; done
}

up() {
  if running; then print_env; return; fi
  down >/dev/null 2>&1 || true
  if [ -e "$D" ] && [ ! -e "$D/.mailstack" ] && [ -n "$(ls -A "$D" 2>/dev/null)" ]; then
    echo "refusing to wipe $D: it was not made by this script" >&2; exit 1
  fi
  rm -rf "$D"; mkdir -p "$D"/{run,state,log,tls,mail,postfix,postfix-spool,postfix-data}
  touch "$D/.mailstack"; chmod 755 "$D"; chown "$MUSER:$MGROUP" "$D/mail"; chown postfix: "$D/postfix-data"
  openssl req -x509 -newkey rsa:2048 -nodes -days 30 -subj "/CN=localhost" \
    -addext "subjectAltName=DNS:localhost,DNS:mail.$DOM,IP:127.0.0.1,IP:::1" \
    -keyout "$D/tls/key.pem" -out "$D/tls/cert.pem" 2>/dev/null
  : >"$D/users"; : >"$D/postfix/vmailbox"
  for u in $USERS; do echo "$u@$DOM:{PLAIN}$PASS" >>"$D/users"; echo "$u@$DOM OK" >>"$D/postfix/vmailbox"; done
  LISTEN=127.0.0.1; grep -q '^0\{31\}1 ' /proc/net/if_inet6 2>/dev/null && LISTEN="127.0.0.1, ::1"
  cat >"$D/dovecot.conf" <<EOF
protocols = imap lmtp
listen = $LISTEN
instance_name = mailstack-$IMAP
base_dir = $D/run/dovecot
state_dir = $D/state
log_path = $D/log/dovecot.log
ssl = yes
ssl_cert = <$D/tls/cert.pem
ssl_key = <$D/tls/key.pem
ssl_dh = </usr/share/dovecot/dh.pem
disable_plaintext_auth = no
auth_mechanisms = plain login
auth_failure_delay = 0
first_valid_uid = 1
mail_location = maildir:~/Maildir
mail_fsync = never
mailbox_idle_check_interval = 1 secs
shutdown_clients = yes
passdb {
  driver = passwd-file
  args = scheme=PLAIN username_format=%u $D/users
  # A failed login answers at once (tests of wrong passwords stay fast) ...
  default_fields = nodelay=yes
}
# ... and adds no penalty that would slow down every later login from 127.0.0.1.
service anvil {
  unix_listener anvil-auth-penalty {
    mode = 0
  }
}
userdb {
  driver = static
  args = uid=$MUSER gid=$MGROUP home=$D/mail/%d/%n
}
namespace inbox {
  inbox = yes
  mailbox Drafts {
    special_use = \\Drafts
    auto = subscribe
  }
  mailbox Sent {
    special_use = \\Sent
    auto = subscribe
  }
  mailbox Trash {
    special_use = \\Trash
    auto = subscribe
  }
}
service imap-login {
  inet_listener imap {
    port = $IMAP
  }
  inet_listener imaps {
    port = $IMAPS
    ssl = yes
  }
}
service lmtp {
  inet_listener lmtp {
    address = 127.0.0.1
    port = $LMTP
  }
}
service auth {
  unix_listener auth-postfix {
    mode = 0660
    user = postfix
    group = postfix
  }
}
protocol lmtp {
  postmaster_address = postmaster@$DOM
}
EOF
  P=$D/postfix
  cat >"$P/main.cf" <<EOF
compatibility_level = 3.6
queue_directory = $D/postfix-spool
data_directory = $D/postfix-data
maillog_file = $D/log/postfix.log
maillog_file_prefixes = $D/log
mail_owner = postfix
setgid_group = postdrop
myhostname = mail.$DOM
mydomain = $DOM
myorigin = $DOM
mydestination =
inet_interfaces = 127.0.0.1
inet_protocols = ipv4
mynetworks = 127.0.0.0/8
alias_maps =
alias_database =
smtp_dns_support_level = disabled
smtpd_peername_lookup = no
relayhost =
# Safety: anything not for the test domain is bounced here, never relayed off this machine.
default_transport = error:outbound mail disabled in test stack
relay_transport = error:outbound mail disabled in test stack
# Plus-addresses (the moderator's signed reply addresses) go to the base user's mailbox.
recipient_delimiter = +
virtual_mailbox_domains = $DOM
virtual_mailbox_maps = texthash:$P/vmailbox
virtual_transport = lmtp:inet:127.0.0.1:$LMTP
smtpd_relay_restrictions = permit_mynetworks, permit_sasl_authenticated, reject_unauth_destination
smtpd_tls_cert_file = $D/tls/cert.pem
smtpd_tls_key_file = $D/tls/key.pem
smtpd_tls_security_level = may
smtpd_sasl_type = dovecot
smtpd_sasl_path = $D/run/dovecot/auth-postfix
message_size_limit = 10240000
EOF
  cat >"$P/master.cf" <<EOF
127.0.0.1:$SMTP inet n - n - - smtpd
127.0.0.1:$SUBM inet n - n - - smtpd -o smtpd_tls_security_level=encrypt -o smtpd_sasl_auth_enable=yes -o smtpd_client_restrictions=permit_sasl_authenticated,reject
127.0.0.1:$SMTPS inet n - n - - smtpd -o smtpd_tls_wrappermode=yes -o smtpd_sasl_auth_enable=yes -o smtpd_client_restrictions=permit_sasl_authenticated,reject
pickup    unix n - n 60 1 pickup
cleanup   unix n - n - 0 cleanup
qmgr      unix n - n 300 1 qmgr
tlsmgr    unix - - n 1000? 1 tlsmgr
rewrite   unix - - n - - trivial-rewrite
bounce    unix - - n - 0 bounce
defer     unix - - n - 0 bounce
trace     unix - - n - 0 bounce
verify    unix - - n - 1 verify
flush     unix n - n 1000? 0 flush
proxymap  unix - - n - - proxymap
smtp      unix - - n - - smtp
relay     unix - - n - - smtp
showq     unix n - n - - showq
error     unix - - n - - error
retry     unix - - n - - error
discard   unix - - n - - discard
lmtp      unix - - n - - lmtp
anvil     unix - - n - 1 anvil
scache    unix - - n - 1 scache
postlog   unix-dgram n - n - 1 postlogd
EOF
  dovecot -c "$D/dovecot.conf" </dev/null >>"$D/log/dovecot.stderr" 2>&1
  Q=$D/postfix-spool   # create the queue layout ourselves + quick-start: skips postfix-script's slow checks
  for q in active bounce corrupt defer deferred flush hold incoming private saved trace; do
    install -d -m 700 -o postfix -g root "$Q/$q"
  done
  install -d -m 730 -o postfix -g postdrop "$Q/maildrop"; install -d -m 710 -o postfix -g postdrop "$Q/public"
  install -d -m 755 "$Q/pid"
  touch -d "-1 min" "$P"/*   # Postfix stalls ~2 s reading a just-written main.cf or map
  touch "$Q/quick-start"; postfix -c "$P" start </dev/null >>"$D/log/postfix.stderr" 2>&1
  for p in $IMAP $IMAPS $LMTP $SMTP $SUBM $SMTPS; do wait_port "$p"; done
  cat >"$D/env" <<EOF
MAILSTACK_DIR=$D
MAILSTACK_HOST=127.0.0.1
MAILSTACK_IMAP_PORT=$IMAP
MAILSTACK_IMAPS_PORT=$IMAPS
MAILSTACK_LMTP_PORT=$LMTP
MAILSTACK_SMTP_PORT=$SMTP
MAILSTACK_SUBMISSION_PORT=$SUBM
MAILSTACK_SMTPS_PORT=$SMTPS
MAILSTACK_CA_CERT=$D/tls/cert.pem
MAILSTACK_DOMAIN=$DOM
MAILSTACK_USERS="$USERS"
MAILSTACK_PASSWORD=$PASS
EOF
  print_env
}

down() {
  stop_pid "$(postfix_pid)"
  dovecot_stop
  echo "mailstack stopped"
}

case "${1:-}" in
  up) up ;;
  down) down ;;
  status) if running; then print_env; else echo "mailstack not running"; exit 1; fi ;;
  # For reconnect tests: take IMAP away (clients see BYE + a closed socket) and bring it back.
  dovecot-stop) dovecot_stop ;;
  dovecot-start) alive "$(dovecot_pid)" || dovecot_start ;;
  # For outage tests: SMTP refused (mail already queued stays in Postfix's queue), then back.
  postfix-stop) stop_pid "$(postfix_pid)" ;;
  postfix-start) alive "$(postfix_pid)" || postfix_start ;;
  *) echo "usage: $0 up|down|status|dovecot-stop|dovecot-start|postfix-stop|postfix-start" >&2
     exit 2 ;;
esac
