// Preloaded into each Prism process (node --require): exits when the process that started it is gone, so a
// `contracts mock` killed with SIGKILL (which it cannot catch) leaves no Prism holding its port.
const parent = process.ppid;
setInterval(() => {
  if (process.ppid !== parent) process.exit(0);
}, 500).unref();
