/**
 * `/executions/:id`: header, run tree, codon timeline, costs, and the live tail when a runtime
 * holds the execution. Live `state` messages replace the detail, so the timeline moves as the
 * run does.
 */
import { useEffect, useState } from 'preact/hooks';
import { useActionFlow } from '../../actions/use-action-flow.js';
import { routes } from '../../api/routes.js';
import { EmptyState, ErrorPanel, Loading } from '../../components/feedback.js';
import { useServerInfo } from '../../hooks/server-info.js';
import { useApi } from '../../hooks/use-api.js';
import { useTitle } from '../../hooks/use-title.js';
import { LiveTail } from '../../live/live-tail.js';
import { useLiveStream } from '../../live/use-live-stream.js';
import { Timeline } from '../timeline/timeline.js';
import { CostsPanel } from './costs-panel.js';
import { ExecutionHeader } from './execution-header.js';
import { RunTree } from './run-tree.js';

export default function ExecutionPage({ id }: { id: string }) {
  const info = useServerInfo();
  const detail = useApi(routes.execution, { id });
  const costs = useApi(routes.costs, { id });
  // The stream said the run is over; the detail reload that follows confirms it.
  const [ended, setEnded] = useState(false);
  useEffect(() => setEnded(false), [id]);
  const live = detail.data?.summary.live === true && !ended;
  // Once following, only the stream's `end` stops it: a `state` message that already says the run
  // stopped (the lock is released a moment before the last events and `end` are sent) must not
  // close the stream before they arrive.
  const [following, setFollowing] = useState(false);
  useEffect(() => {
    if (live) setFollowing(true);
  }, [live]);
  useEffect(() => setFollowing(false), [id]);

  const stream = useLiveStream(id, (live || following) && !ended, {
    onState: (next) => {
      detail.setData(next);
      costs.reload();
    },
    onEnd: () => {
      setEnded(true);
      setFollowing(false);
      detail.reload();
      costs.reload();
    },
  });
  const reloadAll = () => {
    setEnded(false);
    detail.reload();
    costs.reload();
  };
  const flow = useActionFlow(id, reloadAll);
  useTitle(detail.data?.summary.hankName);

  if (detail.error !== undefined)
    return <ErrorPanel error={detail.error} onRetry={detail.reload} />;
  if (detail.data === undefined) return <Loading what="execution" />;
  const data = detail.data;
  return (
    <section class="page execution-page">
      <ExecutionHeader
        detail={data}
        live={live}
        write={info?.write === true}
        flow={flow}
        onReload={reloadAll}
      />
      {flow.element}
      {(live || stream.received > 0) && <LiveTail stream={stream} />}
      <section class="panel">
        <h3>Codon timeline</h3>
        {data.bars.length === 0 ? (
          <EmptyState>
            <p>No codon has started in this execution yet.</p>
          </EmptyState>
        ) : (
          <Timeline executionId={id} detail={data} />
        )}
      </section>
      <div class="two-columns">
        <RunTree runs={data.runTree} executionId={id} />
        <CostsPanel costs={costs} bars={data.bars} />
      </div>
    </section>
  );
}
