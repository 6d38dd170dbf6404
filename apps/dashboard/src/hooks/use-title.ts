/** Sets the tab's title (several executions open in tabs must be told apart). */
import { useEffect } from 'preact/hooks';

export function useTitle(title: string | undefined): void {
  useEffect(() => {
    document.title = title === undefined ? 'hankweave' : `${title} · hankweave`;
  }, [title]);
}
