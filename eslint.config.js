// ESLint (typescript-eslint) for all the code: infra, functions, lib, test, bench, and web/ (the
// console, with the rules of hooks on top: Preact's hooks follow React's). The Node code is also
// linted with type information (recommendedTypeChecked, below). Formatting is Prettier's job
// (eslint-config-prettier turns off the rules it owns); import boundaries are dependency-cruiser's
// (.dependency-cruiser.cjs).
import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['node_modules/', 'cdk.out/', '.data/', 'web/dist/', 'bench/results/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  prettier,
  {
    languageOptions: {
      globals: {
        process: 'readonly',
        console: 'readonly',
        Buffer: 'readonly',
        URL: 'readonly',
        setTimeout: 'readonly',
        queueMicrotask: 'readonly',
      },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' },
      ],
      eqeqeq: ['error', 'always', { null: 'ignore' }],
      'no-console': 'off',
    },
  },
  {
    // The classic rules of hooks. The plugin's React Compiler rules (its recommended set) know hooks by
    // their import from 'react' and misread Preact's refs as frozen values, so they stay off.
    files: ['web/src/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    // useLoad(load, keys) is not listed as an effect hook: it always runs the latest `load`, and its list
    // names when to load again (a week's key, not the Date objects the closure reads).
    rules: { 'react-hooks/rules-of-hooks': 'error', 'react-hooks/exhaustive-deps': 'error' },
  },
  {
    // Type-aware rules for the Node code (lib, functions, infra, bench, test): they see what a value is,
    // so they catch an object stringified into a message (three of those were 500s: String() throws on
    // a client's object with an own toString key), an await on something that is not a promise, a
    // promise nobody awaits and an `any` leaking out of JSON.parse or an SDK. They cost: eslint takes
    // about three times the CPU (one TypeScript program for tsconfig.json, ~2.5 GB). web/ (the browser
    // console and its build scripts) stays on the syntax-only rules above: the console is compiled
    // against its own tsconfig with DOM types. A rule switched off on one line says why there.
    files: ['{lib,functions,infra,bench,test}/**/*.ts'],
    extends: [tseslint.configs.recommendedTypeChecked],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
  },
  {
    // test/ keeps the type-checked rules that find tests which cannot fail (a floating promise, an await
    // on a non-promise, an object stringified into an expected value; ~30 findings, fixed) but not the
    // no-unsafe-* family: tests read response bodies as loosely typed JSON on purpose (about 3,400
    // findings, nearly all reads such as `res.body.data[0].id`), and typing every body would restate the
    // API schemas the tests check. require-await is off there too: its ~50 findings are stand-ins and
    // fakes that implement an async interface (a provider's send, a store's list, a route handler) with
    // an immediate answer, which is what a fake is for.
    files: ['test/**/*.ts'],
    rules: {
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/require-await': 'off',
    },
  },
  {
    // One AsyncLocalStorage in the service's code (lib/async-context.ts): each one in use adds a promise
    // hook's work to every await of the process, so a new value carried along calls is a ContextSlot.
    files: ['{lib,functions,infra}/**/*.ts'],
    ignores: ['lib/async-context.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: ['node:async_hooks', 'async_hooks'].map((name) => ({
            name,
            importNames: ['AsyncLocalStorage'],
            message:
              'Carry a value along asynchronous calls in a ContextSlot (lib/async-context.ts): one AsyncLocalStorage for the process.',
          })),
        },
      ],
    },
  },
  {
    // A dynamic import in the service's code is made once (loadOnce, onFirstUse, or a `??=` memo): a
    // plain import() asks the module loader again on every call, which under the local runtime's
    // TypeScript loader is a round trip to the loader's thread on every request (lib/load-once.ts).
    files: ['{lib,functions}/**/*.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector:
            "ImportExpression:not(CallExpression[callee.name=/^(loadOnce|onFirstUse)$/] ImportExpression):not(AssignmentExpression[operator='??='] ImportExpression)",
          message: 'Load a module on first use with loadOnce(() => import(…)) (lib/load-once.ts), made once per process.',
        },
      ],
    },
  },
  {
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs', globals: { module: 'writable', require: 'readonly' } },
  },
  {
    // Tests read loosely typed JSON bodies.
    files: ['test/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off', '@typescript-eslint/no-non-null-assertion': 'off' },
  },
);
