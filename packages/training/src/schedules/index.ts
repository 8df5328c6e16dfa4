import { endOfSchoolDaySchedule } from './endOfSchoolDay';
import { supportReviewSchedule } from './supportReview';
import { windowCloseSchedule } from './windowClose';

/** The training rules that wait for time (docs/literacy-core.md, "Schedules"). */
export const TRAINING_SCHEDULES = [endOfSchoolDaySchedule, windowCloseSchedule, supportReviewSchedule];
export { endOfSchoolDaySchedule, supportReviewSchedule, windowCloseSchedule };
