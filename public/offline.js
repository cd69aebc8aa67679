// with scripts on, come back by ourselves once the server answers again: checked when the
// network returns and every 5 s (the 'online' event can come before requests go through, and a
// server that was down never fires it)
var waiting = false
function check() {
  if (waiting) return
  waiting = true
  fetch('/readyz', { cache: 'no-store' })
    .then(function (r) { if (r.ok) location.reload() })
    .catch(function () {})
    .then(function () { waiting = false })
}
addEventListener('online', check)
setInterval(check, 5000)
