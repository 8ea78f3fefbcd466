// Package entry `imprint/http`: interfaces A and B as a Fastify server over a service (`imprint/service`).
export { buildServer, listen } from './server.js';
