// Types of scripts/bundle.mjs (plain JavaScript: `npm run build` runs it before anything is compiled).
export declare const ROOT: string;
export declare const BUNDLE_DIR: string;
export declare const INLINE: ReadonlySet<string>;
export declare function packageOf(specifier: string): string;
/** esbuild's metafile, as far as the check reads it. */
export interface BundleMetafile {
  readonly inputs: Readonly<Record<string, unknown>>;
  readonly outputs: Readonly<Record<string, unknown>>;
}
export declare function renamedErrorClasses(metafile: BundleMetafile, root?: string): string[];
/** Bundles dist/ into dist/bundle/; false where esbuild is not installed. */
export declare function bundle(): Promise<boolean>;
