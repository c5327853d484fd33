// Arabic: what the viewer reads for each error code.
import type { SvcErrorStrings } from '../../shared/strings.js';

export default {
  validation_failed: 'بعض القيم غير صالحة.',
  unauthorized: 'لم تسجّل الدخول، أو انتهت صلاحية جلستك. سجّل الدخول مجددًا.',
  forbidden: 'غير مسموح لك بفعل ذلك.',
  not_found: 'غير موجود، أو لا يخصّك.',
  conflict: 'غيّره شخص آخر في هذه الأثناء.',
  payload_too_large: 'الحجم أكبر مما تقبله الخدمة.',
  unsupported_media_type: 'هذا النوع من الملفات غير مقبول.',
  rate_limited: 'طلبات كثيرة جدًا. انتظر لحظة ثم حاول مجددًا.',
  upstream_unavailable: 'خدمة الفيديو غير متاحة الآن. حاول لاحقًا.',
  upstream_timeout: 'استغرقت خدمة الفيديو وقتًا طويلًا للرد. حاول مجددًا.',
  upstream_rejected: 'رفضت خدمة الفيديو الطلب.',
  upstream_credentials: 'اتصال هذا الموقع بخدمة الفيديو غير مُعدّ بشكل صحيح.',
  internal: 'حدث خطأ ما.',
  network_error: 'فشل الاتصال. تحقّق من اتصالك ثم حاول مجددًا.',
  relay_unreachable: 'تعذّر الوصول إلى الخادم. حاول لاحقًا.',
  origin_not_allowed: 'هذه الصفحة غير مسموح لها باستخدام الخادم.',
  aborted: 'أُلغي.',
  embed_rejected: 'رُفض المشغّل لأن رمزه غير آمن.',
  upload_failed: 'فشل الرفع.',
  upload_rejected: 'رفض عنوان الرفع الملف.',
  signature_expired: 'انتهت صلاحية إذن الرفع.',
  file_rejected: 'لا يمكن رفع هذا الملف.',
  type_required: 'اختر نوعًا لكل عنصر.',
} satisfies SvcErrorStrings;
