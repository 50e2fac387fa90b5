// A process that makes an OTLP span sender and, given a batch, sends it, then does nothing more:
// it must end by itself once the batch is answered (the sending thread holds it open only then).
import { otlpSpanSender } from '../../../src/observability/otlp-sender.js';

const [url, text] = process.argv.slice(2);
const sender = otlpSpanSender(url!);
if (text)
  sender.send({ bytes: new TextEncoder().encode(text), count: 1 }, (result) => {
    process.stdout.write(`sent ${result.code}\n`);
  });
