/** An error a view could not recover from by itself, shown where it happened. */
export function ErrorText({ error, testId = 'error' }: { error: string | null; testId?: string }) {
  if (!error) return null;
  return (
    <div className="error" role="alert" data-testid={testId}>
      {error}
    </div>
  );
}
