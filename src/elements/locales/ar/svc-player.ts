// Arabic strings of <svc-player>, keyed like its English defaults.
import type { SvcPlayerStrings } from '../../svc-player/strings.js';

export default {
  loading: 'جارٍ تحميل الفيديو…',
  unavailable: 'هذا الفيديو غير متاح.',
  failed: 'تعذّر تحميل الفيديو. يُرجى المحاولة مرة أخرى لاحقًا.',
  title: 'مشغّل الفيديو',
  play: 'تشغيل الفيديو',
  playTitle: 'تشغيل «{title}»',
} satisfies SvcPlayerStrings;
