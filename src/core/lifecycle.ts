/**
 * One lifecycle primitive for everything Hearth opens (decision 0022): a resource, once created, is pushed on a
 * stack; `dispose()` releases them in reverse order, so what was built last (and may use what came before) goes
 * first. A composition root that fails half-way disposes its stack and rethrows, so nothing it had already
 * opened (a model host process, a store, a container) outlives the failure.
 *
 * Our own rather than `AsyncDisposableStack` (not in Node 20) or lifecycle-utils' `AsyncDisposeAggregator` (which
 * disposes in the order things were added, and reports only the first failure): last-created first, every failure.
 */
export type Disposer = () => void | Promise<void>;

export interface Disposable {
  dispose(): void | Promise<void>;
}

export class DisposalStack implements Disposable {
  private readonly disposers: Disposer[] = [];
  private disposing: Promise<void> | null = null;

  /** Registers a clean-up step; it runs before every step registered earlier. Returns the stack, for chaining. */
  defer(disposer: Disposer): this {
    if (this.disposing !== null) throw new Error('This stack was already disposed; nothing can be added to it.');
    this.disposers.push(disposer);
    return this;
  }

  /** Registers `resource.dispose` and hands the resource back, so creation and registration are one line. */
  use<T extends Disposable | null | undefined>(resource: T): T {
    if (resource !== null && resource !== undefined) this.defer(() => resource.dispose());
    return resource;
  }

  /**
   * Runs every step, last registered first. A failing step does not stop the others; the failures are thrown
   * together afterwards (one as itself, several as an AggregateError). Idempotent: a second call waits for the first.
   */
  dispose(): Promise<void> {
    this.disposing ??= this.run();
    return this.disposing;
  }

  private async run(): Promise<void> {
    const failures: unknown[] = [];
    for (const disposer of this.disposers.splice(0).reverse()) {
      try {
        await disposer();
      } catch (err) {
        failures.push(err);
      }
    }
    if (failures.length === 1) throw failures[0];
    if (failures.length > 1) throw new AggregateError(failures, `${failures.length} resources failed to close`);
  }
}

/**
 * Builds something over a fresh stack: when `build` throws, what it had pushed is disposed (in reverse) and the
 * original error is rethrown. A failure while unwinding is kept on that error as `suppressed`, so it does not
 * hide why start-up failed.
 */
export async function buildWithStack<T>(build: (stack: DisposalStack) => Promise<T> | T): Promise<T> {
  const stack = new DisposalStack();
  try {
    return await build(stack);
  } catch (err) {
    try {
      await stack.dispose();
    } catch (disposeErr) {
      if (typeof err === 'object' && err !== null) Object.assign(err, { suppressed: disposeErr });
    }
    throw err;
  }
}
