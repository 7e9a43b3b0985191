// Values derived from the configuration and asked for on every request (the pool's account list and limits): the
// store's config is frozen and replaced on every write, so a value derived from one config object stays right
// until the next write, and is worked out again only then.

/** `derive` of the current config, worked out once per config object (its result frozen: callers share it). */
export function perConfig<C extends object, T extends object>(current: () => C, derive: (config: C) => T): () => Readonly<T> {
  let from: C | undefined;
  let value: Readonly<T> | undefined;
  return () => {
    const config = current();
    if (config !== from || value === undefined) {
      value = Object.freeze(derive(config));
      from = config;
    }
    return value;
  };
}
