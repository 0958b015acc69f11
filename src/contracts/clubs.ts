import { Type } from 'typebox';
import { Envelope } from './common.js';

export const Club = Type.Object({
  name: Type.String({ description: 'club identifier, as used by the leaderboard `clubs[]` filter' }),
  description: Type.String(),
  source: Type.Enum(['rule', 'csv'], { description: 'rule: membership decided by the label; csv: a loaded list' }),
  member_count: Type.Integer({ description: 'names in the database that belong to the club' }),
});

export const ClubsResponse = Envelope(Type.Object({ clubs: Type.Array(Club) }));
