// @ts-check
import { defineConfig } from 'eslint/config';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';
import prettier from 'eslint-config-prettier';

export default defineConfig(
  { ignores: ['dist/**', 'client/dist/**', 'node_modules/**', 'release/**', 'coverage/**'] },
  js.configs.recommended,
  {
    files: ['**/*.ts'],
    extends: [tseslint.configs.recommendedTypeChecked],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
      globals: { ...globals.node },
    },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-floating-promises': 'error',
      // One way to hide a member: ECMAScript's #name, which the runtime enforces, not TypeScript's
      // `private`, which only the compiler sees. A private constructor has no #-form and stays.
      'no-restricted-syntax': [
        'error',
        ...[
          "PropertyDefinition[accessibility='private']",
          "MethodDefinition[accessibility='private'][kind!='constructor']",
          "TSParameterProperty[accessibility='private']",
          "AccessorProperty[accessibility='private']",
        ].map((selector) => ({
          selector,
          message:
            "Use an ECMAScript private member (#name) instead of TypeScript's `private`; a constructor parameter becomes a #field assigned in the constructor.",
        })),
      ],
    },
  },
  {
    files: ['**/*.js', '**/*.mjs'],
    languageOptions: { globals: { ...globals.node } },
  },
  // Prettier owns the layout; this turns off every stylistic rule that would disagree with it.
  prettier,
);
