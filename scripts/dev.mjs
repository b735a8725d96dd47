// `npm run dev`: the Node server (restarted on change) and Vite with hot reload, which
// proxies /api and /ws to it. Open http://localhost:5173/.
import { spawn } from 'node:child_process';

// The pages come from Vite's origin, so the server's sockets must accept it (they compare
// Origin with the server's public origins, never with the Host header the proxy forwards).
const devOrigins = ['http://localhost:5173', 'http://127.0.0.1:5173'];
const serverEnv = { ...process.env, ALLOWED_ORIGINS: [process.env.ALLOWED_ORIGINS, ...devOrigins].filter(Boolean).join(',') };

const children = [
  spawn('npx', ['tsx', 'watch', '--clear-screen=false', 'server/main.ts'], { stdio: 'inherit', env: serverEnv }),
  spawn('npx', ['vite'], { stdio: 'inherit', env: process.env }),
];

let stopping = false;
function stop(code) {
  if (stopping) return;
  stopping = true;
  for (const child of children) child.kill('SIGTERM');
  process.exitCode = code;
}
for (const child of children) child.on('exit', (code) => stop(code ?? 0));
process.on('SIGINT', () => stop(0));
process.on('SIGTERM', () => stop(0));
