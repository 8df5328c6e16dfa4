#!/usr/bin/env node
// Runs the TypeScript CLI through tsx, the one TypeScript runner the project uses everywhere.
import { register } from 'tsx/esm/api';

register();
await import('../src/main.ts');
