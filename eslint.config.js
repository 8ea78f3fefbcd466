// ESLint flat config. Formatting is Prettier's alone (.prettierrc.json; eslint-config-prettier turns
// off every stylistic rule), so ESLint reports only what may be a bug or a type leak.
// `npm run lint` runs both; `npm run format` rewrites with Prettier, then applies ESLint's fixes.
import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import tseslint from 'typescript-eslint';

// Node's globals, for the plain JavaScript files (bin/, bench/, scripts/); TypeScript files get them
// from @types/node, and typescript-eslint turns no-undef off for them.
const nodeGlobals = Object.fromEntries(
  [
    'AbortController',
    'AbortSignal',
    'Blob',
    'Buffer',
    'FormData',
    'Headers',
    'Request',
    'Response',
    'TextDecoder',
    'TextEncoder',
    'URL',
    'URLSearchParams',
    'clearImmediate',
    'clearInterval',
    'clearTimeout',
    'console',
    'fetch',
    'globalThis',
    'performance',
    'process',
    'queueMicrotask',
    'setImmediate',
    'setInterval',
    'setTimeout',
    'structuredClone',
  ].map((name) => [name, 'readonly']),
);

export default tseslint.config(
  {
    // Built and generated output, and data: golden images, bench results, examples' renders.
    ignores: ['dist/', 'coverage/', 'node_modules/', 'out/', 'scratch/', 'test-output/', 'data/', 'bench/results/', 'golden/', '**/*.d.ts.map'],
  },
  js.configs.recommended,
  {
    files: ['**/*.js', '**/*.mjs'],
    languageOptions: { ecmaVersion: 2024, sourceType: 'module', globals: nodeGlobals },
    rules: {
      'no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true }],
    },
  },
  {
    files: ['**/*.ts', '**/*.tsx'],
    extends: [tseslint.configs.recommendedTypeChecked],
    languageOptions: {
      parserOptions: {
        // Each file is checked with the nearest tsconfig.json that includes it: tsconfig.json (src,
        // test, bench, scripts: Node, no DOM), studio/tsconfig.json (the Studio: DOM, no Node) and
        // studio/test/tsconfig.json (its tests: both); the vitest configs stand alone.
        projectService: { allowDefaultProject: ['vitest.config.ts', 'vitest.engine.config.ts'] },
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      // The rules this code most needs: a promise nobody awaits or catches fails silently (or takes
      // the process down as an unhandled rejection), and an async function handed to an event
      // emitter or a callback that ignores its result loses its errors the same way.
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { arguments: false, attributes: false } }],
      // Type-only imports stay out of the emitted JavaScript, so a module's runtime imports are
      // exactly its value imports (the lazy-loading tests count them).
      // `typeof import('m')` in a type position (vitest's importOriginal<typeof import('m')>()) is allowed.
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports', disallowTypeAnnotations: false }],
      '@typescript-eslint/no-import-type-side-effects': 'error',
      // `_name` marks a parameter or destructured field that is deliberately unused (as tsc's
      // noUnusedParameters also accepts); rest siblings drop fields from a copy.
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true }],
      // Parsed JSON, zod's output and native modules' results are handled as `unknown` and narrowed;
      // the no-unsafe-* family fires on every access to values typed `any` by libraries (fontkit,
      // pdfkit, linebreak) that the code already narrows by hand, and would need casts on each line.
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      // An async function without await is how this code implements a Promise-returning interface
      // (a queue's push, a store's close) and turns a synchronous throw into a rejection; the rule
      // flagged 32 such functions and no mistake.
      '@typescript-eslint/require-await': 'off',
      // Template literals in messages interpolate numbers and unions of literals on purpose.
      '@typescript-eslint/restrict-template-expressions': ['error', { allowNumber: true, allowBoolean: true, allowNullish: true }],
    },
  },
  {
    // The tests that drive the Studio in Chromium sit in test/ but their page functions use the DOM:
    // they belong to studio/test/tsconfig.json, which is not the nearest configuration to them.
    files: ['test/studio-*.test.ts', 'test/support/studio.ts'],
    languageOptions: { parserOptions: { projectService: false, project: './studio/test/tsconfig.json' } },
  },
  {
    // Tests, benchmarks and scripts may use `any` for fixtures and hostile inputs; src/ may not.
    files: ['test/**/*.ts', 'bench/**/*.ts', 'scripts/**/*.ts'],
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      // vitest's expect(...).rejects / resolves chains are awaited by the caller; `expect(fn).toThrow()`
      // passes unbound methods on purpose.
      '@typescript-eslint/unbound-method': 'off',
    },
  },
  prettier,
);
